import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRegularFile, regularFileRefusal } from './regular-file.js';

// The one reader of files a scenario or a command names (engine/regular-file.ts): a regular file of
// at most the stated size, else one line saying why, refused before a byte is read. Its callers' own
// tests try the hostile files through them (a FIFO and /dev/zero as a HAR: cli/file-inputs.test.ts,
// where a read without end is ended by the test's deadline).

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-regular-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('readRegularFile', () => {
  it('a file of exactly the limit is read; one byte more is refused by its size, unread', () => {
    const file = join(dir, 'f.txt');
    writeFileSync(file, 'x'.repeat(1024));
    expect(readRegularFile(file, 1024, 'a test file')).toEqual({ text: 'x'.repeat(1024) });
    writeFileSync(file, 'x'.repeat(1025));
    expect(readRegularFile(file, 1024, 'a test file')).toEqual({ refused: 'is 1025 bytes; a test file may have at most 1024 bytes' });
  });

  it('a sparse 400 MB file against a 1 MiB limit: refused by its size, its limit in MiB', () => {
    const file = join(dir, 'big.pem');
    writeFileSync(file, '');
    truncateSync(file, 400 * 1024 * 1024);
    expect(readRegularFile(file, 1024 * 1024, 'a TLS file')).toEqual({ refused: `is ${400 * 1024 * 1024} bytes; a TLS file may have at most 1 MiB` });
  });

  it('/dev/zero, a folder, a missing path: one line each, nothing read', () => {
    expect(readRegularFile('/dev/zero', 1024, 'a test file')).toEqual({ refused: 'is a device, not a regular file' });
    expect(readRegularFile(dir, 1024, 'a test file')).toEqual({ refused: 'is a directory, not a regular file' });
    expect(readRegularFile(join(dir, 'none'), 1024, 'a test file')).toEqual({ refused: 'does not exist' });
    expect(regularFileRefusal('/dev/zero', 1024, 'a test file')).toBe('is a device, not a regular file');
  });
});
