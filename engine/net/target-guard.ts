import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { LoadscopeError } from '../../contract/errors.js';

// Load only ever goes to this machine (127.0.0.0/8, ::1) unless the person consented. The rule is
// enforced on the ADDRESS that is connected to, not on the URL's text: an IP literal is checked
// before anything connects (net.connect skips lookup for literals), a name is checked on every
// resolution through the lookup below, which the driver's fast path, undici and the readiness
// probes all pass to net.connect. A refused name fails in the lookup, before any packet is sent.

/** 127.0.0.0/8, ::1, and IPv4-mapped 127/8 (::ffff:127.x.y.z). */
export function isLoopbackAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  if (isIP(a) === 4) return a.startsWith('127.');
  if (isIP(a) !== 6) return false;
  if (a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  return mapped !== null && mapped[1]!.startsWith('127.');
}

export function notLoopback(host: string, address: string): LoadscopeError {
  const where = host === address ? address : `${host} (${address})`;
  return new LoadscopeError('LS_ERR_NOT_LOOPBACK', `load only goes to this machine (127.0.0.0/8, ::1) unless you consent (--allow-remote); refused ${where}`);
}

/** The host part of a URL as net.connect sees it (WHATWG parsing: userinfo dropped, brackets off). */
export function connectHost(url: string): string {
  return new URL(url).hostname.replace(/^\[|\]$/g, '');
}

/** Throws before connecting when the URL's host is an IP literal outside this machine. Names pass (the lookup checks them). */
export function checkLiteralTarget(url: string, allowRemote: boolean): void {
  const host = connectHost(url);
  if (!allowRemote && isIP(host) !== 0 && !isLoopbackAddress(host)) throw notLoopback(host, host);
}

type BaseLookup = (hostname: string, options: LookupAllOptions, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;
const systemLookup: BaseLookup = (hostname, options, callback) => dnsLookup(hostname, options, callback);

/**
 * A net.connect `lookup` that resolves every address of the name and refuses the connection when
 * any of them is outside this machine (unless allowRemote). Answers in the form net asked for.
 */
export function guardedLookup(allowRemote: boolean, base?: BaseLookup): LookupFunction {
  return (hostname, options, callback) => {
    (base ?? resolver)(hostname, { family: options.family, hints: options.hints, all: true }, (err, addresses) => {
      const reply = callback as (err: Error | null, address: string | LookupAddress[], family?: number) => void;
      if (err) return reply(err, '', 4);
      const outside = addresses.find((a) => !isLoopbackAddress(a.address));
      if (addresses.length === 0) return reply(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 4);
      if (outside && !allowRemote) return reply(notLoopback(hostname, outside.address), '', 4);
      if (options.all) reply(null, addresses);
      else reply(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

// The resolver every guarded lookup uses in this thread: the system's. Tests swap it so that a name
// can "resolve" outside this machine without any packet leaving it (the guard's refusal is tested on
// the address connected to, not on a name).
let resolver: BaseLookup = systemLookup;

/** The resolver guarded lookups in this thread use (none given: the system's again). */
export function setTargetResolver(base?: BaseLookup): void {
  resolver = base ?? systemLookup;
}
