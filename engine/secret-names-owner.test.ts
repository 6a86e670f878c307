import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCredentialField, isLoginField, isPasswordField, isSecretHeader, isShownMasked } from '../contract/secret-names.js';
import { rootPath } from './paths.js';

// One owner for the names that mark a secret (issue 39): the import that moves a value out of a
// scenario and Try once that masks what it shows ask contract/secret-names.ts. Held two ways: what an
// import treats as a secret is always masked when shown, and a second pattern of secret words
// anywhere else in the shipped code fails the scan below.

const FOLDERS = ['contract', 'db', 'engine', 'cli', 'electron', 'renderer', 'servers'];
/** A regular expression literal that spells a password word: a second list of secret names. */
const SECRET_PATTERN = /\/(?:[^/\\\n]|\\.)*(?:passw|api\[-_\]\?key|api-\?key)(?:[^/\\\n]|\\.)*\/[dgimsuy]*/;

function shippedSources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'test-support') out.push(...shippedSources(path));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

describe('secret names: one list', () => {
  it('names an import moves (headers, fields, a login beside a password): each is shown masked too', () => {
    const headers = ['Authorization', 'Proxy-Authorization', 'Cookie', 'Set-Cookie', 'X-Api-Key', 'X-Auth-Token', 'X-CSRF-Token', 'X-Session-Id', 'X-Signature', 'X-Client-Secret'];
    const fields = ['password', 'passwd', 'passphrase', 'api_key', 'access-key', 'private_key', 'refresh_token', 'client_secret', 'pin', 'otp', 'sessionId', 'credentials'];
    for (const h of headers) expect([h, isSecretHeader(h), isShownMasked(h)]).toEqual([h, true, true]);
    for (const f of fields) expect([f, isCredentialField(f), isShownMasked(f)]).toEqual([f, true, true]);
    expect(['password', 'passwd', 'pin'].every(isPasswordField)).toBe(true);
    expect(['user', 'email', 'login', 'username'].every(isLoginField)).toBe(true);
  });

  it('plain names (sortKey, pinned, Content-Type, a name): stay where they are; a view masks any key', () => {
    for (const f of ['sortKey', 'pinned', 'name', 'id', 'otpEnabled']) expect([f, isCredentialField(f)]).toEqual([f, false]);
    for (const h of ['Content-Type', 'Accept', 'X-Request-Id', 'User-Agent']) expect([h, isSecretHeader(h), isShownMasked(h)]).toEqual([h, false, false]);
    expect(isShownMasked('sortKey')).toBe(true);
    expect(isPasswordField('user')).toBe(false);
    expect(isLoginField('password')).toBe(false);
  });

  it('a second list of secret words in shipped code (a regex spelling passw or api-key outside contract/secret-names.ts): none', () => {
    const offenders: string[] = [];
    for (const folder of FOLDERS) {
      for (const file of shippedSources(rootPath(folder))) {
        const name = relative(rootPath('.'), file);
        if (name === join('contract', 'secret-names.ts')) continue;
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            const comment = /^\s*(\/\/|\*|\/\*)/.test(line);
            if (!comment && SECRET_PATTERN.test(line)) offenders.push(`${name}:${i + 1}: ${line.trim()}`);
          });
      }
    }
    expect(offenders).toEqual([]);
  });
});
