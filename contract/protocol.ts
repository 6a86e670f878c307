// The one protocol vocabulary (issue 37): what a bundled server serves, what the load offers an
// external target and what a server run's load spoke (stored with it) are all a `Protocol`. Zod-free:
// the driver imports it.
//
//   h1       HTTP/1.1 over plain TCP          bundled: protocol 'http' (or 'h1'), the default
//   h1-tls   HTTP/1.1 over TLS                bundled: 'https' (or 'h1-tls'); external: 'h1' to https://
//   h2       h2 by ALPN over TLS              bundled: 'h2' (also answers HTTP/1.1)
//   h2c      h2 by prior knowledge, no TLS    bundled and external: 'h2c'
//
// A flat union, not a {version, tls} pair: each of the four is a different thing to measure (TLS and
// the h2 session each change the figures), the four are exactly what the bundled servers serve, and a
// string is what the store keeps and the views print. TLS for h2 and h2c is implied, so a pair would
// carry two combinations that cannot happen.

export const PROTOCOLS = ['h1', 'h1-tls', 'h2', 'h2c'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/**
 * What the load generator offers a target (an external server's `protocol`, the driver's plan): TLS
 * comes from the url's scheme, so one 'h1' offers HTTP/1.1 to http:// and https:// alike.
 */
export const CLIENT_PROTOCOLS = ['h1', 'h2', 'h2c'] as const satisfies readonly Protocol[];
export type ClientProtocol = (typeof CLIENT_PROTOCOLS)[number];

/** A bundled server's `options.protocol` as scenarios spell it: the words it took before (http, https) and the vocabulary's. */
export const FRONT_SPELLINGS = { http: 'h1', https: 'h1-tls', h1: 'h1', 'h1-tls': 'h1-tls', h2: 'h2', h2c: 'h2c' } as const satisfies Record<string, Protocol>;
export type FrontSpelling = keyof typeof FRONT_SPELLINGS;

/** Does this protocol run over TLS (its base URL is https://)? */
export function protocolUsesTls(protocol: Protocol): boolean {
  return protocol === 'h1-tls' || protocol === 'h2';
}

/** What the load spoke, from what the connection learnt: its ALPN answer over TLS, or the h2c preface answered. */
export function spokenProtocol(tls: boolean, negotiated: 'h2' | 'h2c' | 'http/1.1'): Protocol {
  if (negotiated === 'h2c') return 'h2c';
  if (tls) return negotiated === 'h2' ? 'h2' : 'h1-tls';
  return 'h1';
}

/** A stored protocol as read back: a Protocol, 'unknown' for a string that is none, null where none was kept. */
export type StoredProtocol = Protocol | 'unknown';

/**
 * The stored protocol column parsed. Runs stored before issue 37 kept 'http/1.1' whether over TLS or
 * not: that is read as not known (null, as k6 and older runs), rather than guessed into h1 or h1-tls.
 */
export function readStoredProtocol(stored: string | null | undefined): StoredProtocol | null {
  if (stored === null || stored === undefined || stored === 'http/1.1') return null;
  return (PROTOCOLS as readonly string[]).includes(stored) ? (stored as Protocol) : 'unknown';
}

/** Whether a view notes the protocol a server run spoke: h2 and h2c (HTTP/1.1, plain or TLS, is what a reader assumes). */
export function protocolWorthNoting(protocol: StoredProtocol | null | undefined): protocol is 'h2' | 'h2c' {
  return protocol === 'h2' || protocol === 'h2c';
}
