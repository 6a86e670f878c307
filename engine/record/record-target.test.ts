import { describe, expect, it } from 'vitest';
import { LoadscopeError } from '../../contract/errors.js';
import { recordTarget } from './record-target.js';

// The URL a recording opens: its origin becomes the journey's target, so it is held to a run's target
// rule before any browser starts. Tried: hosts outside this machine, a user:password@ that hides the
// real host, schemes that are not http(s), text that is not a URL. What holds: each is refused in one
// line naming what to do (a remote host asks for consent, as a run does); loopback passes.

function refusal(text: string, allowRemote = false): LoadscopeError {
  try {
    recordTarget(text, allowRemote);
  } catch (err) {
    if (err instanceof LoadscopeError) return err;
    throw err;
  }
  throw new Error(`${text} was accepted`);
}

describe('the URL a recording opens', () => {
  it('loopback by address or by name: accepted, with its path kept for the browser', () => {
    expect(recordTarget('http://127.0.0.1:3000/login?next=/', false).href).toBe('http://127.0.0.1:3000/login?next=/');
    expect(recordTarget('http://localhost:8080/', false).host).toBe('localhost:8080');
    expect(recordTarget('https://[::1]:8443/', false).host).toBe('[::1]:8443');
  });

  it('a host outside this machine without consent: refused as a run target is, naming the host and the flag', () => {
    for (const url of ['http://10.0.0.5/', 'https://example.com/app', 'http://0.0.0.0:3000/']) {
      const err = refusal(url);
      expect(err.code).toBe('LS_ERR_NEEDS_CONSENT');
      expect(err.message).toMatch(/^the journey this recording makes sends load outside this machine, to [^;]+; confirm it in the UI or pass --allow-remote$/);
    }
  });

  it('a host outside this machine with consent: accepted', () => {
    expect(recordTarget('https://example.com/app', true).origin).toBe('https://example.com');
  });

  it('user:password@ before the host (http://127.0.0.1:1@10.0.0.1/ goes to 10.0.0.1): refused even with consent', () => {
    const err = refusal('http://127.0.0.1:1@10.0.0.1/', true);
    expect(err.code).toBe('LS_ERR_BAD_REQUEST');
    expect(err.message).toBe('record takes a URL without user:password@ (sign in on the page instead)');
  });

  it('not http(s), or not a URL at all: one line, the text quoted and cut', () => {
    expect(refusal('file:///etc/passwd').message).toBe('record takes an http(s) URL, not "file:"');
    expect(refusal('javascript:alert(1)').message).toBe('record takes an http(s) URL, not "javascript:"');
    const long = refusal(`not a url\n${'x'.repeat(5000)}`).message;
    expect(long).not.toContain('\n');
    expect(long.length).toBeLessThan(300);
  });
});
