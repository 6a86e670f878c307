import { describe, expect, it } from 'vitest';
import { readStoredProtocol, spokenProtocol } from '../../contract/protocol.js';
import { driverProtocol } from '../run/target-tls.js';
import { validateScenario } from './validate.js';

// One protocol vocabulary (issue 37, contract/protocol.ts: h1, h1-tls, h2, h2c). Scenarios keep
// every spelling they took before: a bundled server's options.protocol http / https / h2 / h2c (now
// also h1 / h1-tls), an external server's protocol h1 / h2 / h2c; the parser maps them into the one
// type. A word that is none is refused with its JSON path, never guessed.

const PHASE = { executor: 'closed', users: 1, count: 1, requests: [{ path: '/' }] };

function bundled(protocol: string) {
  return validateScenario({ name: 'p', servers: [{ architecture: 'single', options: { protocol } }], phases: [PHASE] });
}

describe('protocol spellings at the scenario parser', () => {
  it('a bundled server spelt as before (http, https, h2, h2c) or in the vocabulary (h1, h1-tls): parsed into h1, h1-tls, h2, h2c', () => {
    const spelt = ['http', 'https', 'h2', 'h2c', 'h1', 'h1-tls'];
    const parsed = spelt.map((s) => {
      const v = bundled(s);
      if (!v.ok) throw new Error(JSON.stringify(v.issues));
      const server = v.scenario.servers[0]!;
      return server.architecture === 'external' ? null : server.options.protocol;
    });
    expect(parsed).toEqual(['h1', 'h1-tls', 'h2', 'h2c', 'h1', 'h1-tls']);
  });

  it('what the load offers: a bundled https server h1 (TLS from its url), h2 and h2c as served; an external server as it says', () => {
    const offers = ['http', 'https', 'h2', 'h2c'].map((s) => {
      const v = bundled(s);
      return v.ok ? driverProtocol(v.scenario.servers[0]!) : null;
    });
    expect(offers).toEqual(['h1', 'h1', 'h2', 'h2c']);
    const external = validateScenario({ name: 'p', servers: [{ architecture: 'external', url: 'http://127.0.0.1:1', protocol: 'h2c' }], phases: [PHASE] });
    expect(external.ok && driverProtocol(external.scenario.servers[0]!)).toBe('h2c');
  });

  it('a word that is no protocol (http2, HTTPS, h3; https for an external server): refused, a bundled one naming servers[0].options.protocol', () => {
    for (const word of ['http2', 'HTTPS', 'h3']) {
      const v = bundled(word);
      expect(v.ok).toBe(false);
      if (!v.ok) expect(v.issues.map((i) => i.path)).toContain('servers[0].options.protocol');
    }
    const external = validateScenario({ name: 'p', servers: [{ architecture: 'external', url: 'https://127.0.0.1:1', protocol: 'https' }], phases: [PHASE] });
    // (the union's issue names the server, not yet its protocol field: the validator's wording for a union)
    expect(external.ok).toBe(false);
  });

  it('what was spoken, as the driver learns it: HTTP/1.1 plain h1, over TLS h1-tls, ALPN h2, the h2c preface h2c', () => {
    expect([spokenProtocol(false, 'http/1.1'), spokenProtocol(true, 'http/1.1'), spokenProtocol(true, 'h2'), spokenProtocol(false, 'h2c')]).toEqual(['h1', 'h1-tls', 'h2', 'h2c']);
    expect([readStoredProtocol('h1-tls'), readStoredProtocol('http/1.1'), readStoredProtocol('quic')]).toEqual(['h1-tls', null, 'unknown']);
  });
});
