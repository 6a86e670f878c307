import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { k6TlsFor } from '../k6/k6-tls.js';
import { prepareScenario } from '../scenario/prepare.js';
import { TLS_FILE_MAX_BYTES } from '../scenario/tls-files.js';
import { useTempEngine } from '../test-support/temp-engine.js';
import { driverTls } from './target-tls.js';

// An external server's tls.ca / cert / key are read as regular files of at most 1 MiB each (a PEM
// bundle of every system root is ~220 KiB): a 400 MB tls.ca was read whole at the load's start. The
// size is checked when the run is prepared (one line at the JSON path, nothing read, no run stored)
// and again when the file is read (the driver's, and k6's client certificate), since it may have
// grown in between. Sparse files in a temp folder: the oversize ones take no disk.

const temp = useTempEngine('tls-files');
let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-tls-files-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A sparse file of `bytes`: its size is real, its blocks are not. */
function sized(name: string, bytes: number): string {
  const file = join(dir, name);
  writeFileSync(file, '');
  truncateSync(file, bytes);
  return file;
}

const phases = [{ name: 'p', executor: 'burst', count: 1, requests: [{ path: '/' }] }];

/** An external https server with these tls settings, parsed as the scenario schema gives it. */
function externalServer(tls: Record<string, unknown>) {
  return prepareScenario({ name: 'tls', servers: [{ architecture: 'external', url: 'https://127.0.0.1:1', tls }], phases }, 'test').scenario.servers[0]!;
}

describe('TLS files of a stated size', () => {
  it('a 400 MB tls.ca beside the scenario: refused when the run is prepared, naming servers[0].tls.ca and the 1 MiB limit; no run stored', async () => {
    sized('ca.pem', 400 * 1024 * 1024);
    const text = JSON.stringify({ name: 'tls', servers: [{ architecture: 'external', url: 'https://127.0.0.1:1', tls: { ca: 'ca.pem' } }], phases });
    const file = join(dir, 'tls.json');
    writeFileSync(file, text);
    await expect(temp.engine.handlers['runs:start']({ scenario: { text, origin: file }, quick: false, set: {} })).rejects.toThrow(
      `servers[0].tls.ca: ${join(dir, 'ca.pem')} is ${400 * 1024 * 1024} bytes; a TLS file may have at most 1 MiB`,
    );
    expect(await temp.engine.handlers['runs:list']({ limit: 10 })).toEqual([]);
  });

  it('a tls.ca grown past 1 MiB after the run was prepared: the driver refuses it unread, one line naming tls.ca', () => {
    const ca = sized('grown.pem', TLS_FILE_MAX_BYTES + 1);
    expect(() => driverTls(externalServer({ ca }), undefined)).toThrow(
      expect.objectContaining({ code: 'LS_ERR_SCENARIO_INVALID', message: `tls.ca: ${ca} is ${TLS_FILE_MAX_BYTES + 1} bytes; a TLS file may have at most 1 MiB` }),
    );
  });

  it("k6's client certificate and key over 1 MiB: refused unread, one line naming tls.cert", () => {
    const cert = sized('client.pem', TLS_FILE_MAX_BYTES + 1);
    const key = sized('client.key', 100);
    expect(() => k6TlsFor(externalServer({ insecure: true, cert, key }), 0, dir)).toThrow(`tls.cert: ${cert} is ${TLS_FILE_MAX_BYTES + 1} bytes; a TLS file may have at most 1 MiB`);
  });

  it('a tls.key that is a device: refused when the run is prepared, naming servers[0].tls.key', async () => {
    const text = JSON.stringify({ name: 'tls', servers: [{ architecture: 'external', url: 'https://127.0.0.1:1', tls: { cert: join(dir, 'c.pem'), key: '/dev/zero' } }], phases });
    writeFileSync(join(dir, 'c.pem'), 'not used');
    const file = join(dir, 'tls.json');
    writeFileSync(file, text);
    await expect(temp.engine.handlers['runs:start']({ scenario: { text, origin: file }, quick: false, set: {} })).rejects.toThrow('servers[0].tls.key: /dev/zero is a device, not a regular file');
  });
});
