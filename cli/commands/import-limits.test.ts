import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeLongLineFile, writeOneLineGzipBomb } from '../../engine/k6/import/test-support/big-inputs.js';
import { requestLine } from '../../engine/k6/test-support/k6-points.js';
import { rootPath } from '../../engine/paths.js';

// Hostile files at the command line (the compiled CLI): each refused with exit code 2 and one line
// naming the limit, no stack trace, nothing stored, and memory bounded whatever the input's size.

const BIN = rootPath('bin/loadscope.js');
// Each child reports its peak memory on exit (stderr's last line), so a test can hold it to a bound.
const PEAK = `--import=data:text/javascript,process.on('exit',()=>process.stderr.write('peak-rss-kb='+process.resourceUsage().maxRSS+'\\n'))`;
let dir: string;
let db: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-cli-import-'));
  db = join(dir, 'runs.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

interface Ran {
  status: number | null;
  stdout: string;
  /** stderr without the peak line */
  stderr: string;
  peakMiB: number;
}
const parse = (status: number | null, stdout: string, stderr: string): Ran => {
  const peak = /peak-rss-kb=(\d+)\n$/.exec(stderr);
  return { status, stdout, stderr: stderr.replace(/peak-rss-kb=\d+\n$/, ''), peakMiB: peak ? Number(peak[1]) / 1024 : NaN };
};
const cli = (...args: string[]): Ran => {
  const r = spawnSync(process.execPath, [PEAK, BIN, ...args, '--db', db], { encoding: 'utf8', timeout: 120_000 });
  return parse(r.status, r.stdout, r.stderr);
};
const runs = () => JSON.parse(cli('list', '--json').stdout) as unknown[];

/** Refused as bad input: exit 2, one line on stderr matching `reason`, no stack, no run stored. */
function expectRefused(r: Ran, reason: RegExp): void {
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr.trimEnd().split('\n'), r.stderr).toHaveLength(1);
  expect(r.stderr).toMatch(reason);
  expect(r.stderr).not.toMatch(/\n\s+at |RangeError/);
  expect(runs()).toEqual([]);
}

describe('import-k6 of hostile files', () => {
  it('refuses a line over the limit with one line naming the limit and the line, exit 2, nothing stored', async () => {
    const path = join(dir, 'long.json');
    await writeLongLineFile(path, 2 * 1024 * 1024);
    expectRefused(cli('import-k6', path), /^loadscope: long\.json line 3 is longer than 1 MiB, the most one k6 result line may have; nothing was stored \(LS_ERR_BAD_REQUEST\)\n$/);
  });

  it('refuses a 600 KB gzip that expands to one 600 MiB line, with bounded memory', async () => {
    const path = join(dir, 'bomb.json.gz');
    await writeOneLineGzipBomb(path, 600);
    const r = cli('import-k6', path);
    expectRefused(r, /^loadscope: bomb\.json\.gz line 1 is longer than 1 MiB/);
    // a whole line in memory would be 600 MiB and more; the bounded reader holds about one MiB of it
    expect(r.peakMiB).toBeLessThan(300);
  });

  it('refuses a k6 point of 1e308 with the field and line named, and stores no run', () => {
    const good = requestLine({ endMs: 10, totalMs: 5, phase: 0 });
    const path = join(dir, 'huge.json');
    writeFileSync(path, `${good}\n${good.replace('"value":5', '"value":1e308')}\n`);
    expectRefused(cli('import-k6', path), /^loadscope: huge\.json line 2: data\.value \(a duration in ms\) 1e\+308 is out of range/);
    expect(cli('import-k6', join(dir, 'huge.json')).status).toBe(2);
    writeFileSync(path, `${good}\n`);
    expect(cli('import-k6', path).status).toBe(0);
    expect(runs()).toHaveLength(1);
  });
});

describe('scenarios import of an endless stream', () => {
  it('refuses /dev/zero after reading at most one byte past 48 MiB (a bundle with its data files)', () => {
    const r = cli('scenarios', 'import', '/dev/zero');
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^loadscope: \/dev\/zero is more than 50331648 bytes; a scenario \(or a bundle with its data files\) may have at most 50331648 \(LS_ERR_SCENARIO_INVALID\)\n$/);
    expect(r.peakMiB).toBeLessThan(300);
  });

  it('refuses a FIFO a writer keeps filling, and a regular file over 48 MiB by its size', async () => {
    const fifo = join(dir, 'endless.json');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // the writer is `yes`: endless, until the reader closes the pipe
    const writer = spawn('sh', ['-c', `exec yes '{"name":"x"}' > '${fifo}'`], { stdio: 'ignore' });
    const writerEnded = new Promise((resolve) => writer.on('exit', resolve));
    const child = spawn(process.execPath, [PEAK, BIN, 'scenarios', 'import', fifo, '--db', db], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const status = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    await writerEnded;
    const r = parse(status, stdout, stderr);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/is more than 50331648 bytes; a scenario \(or a bundle with its data files\) may have at most 50331648/);
    expect(r.peakMiB).toBeLessThan(300);

    const big = join(dir, 'big.json');
    // sparse: refused by its size, before a byte is read
    writeFileSync(big, '');
    truncateSync(big, 49 * 1024 * 1024);
    expect(cli('scenarios', 'import', big).stderr).toMatch(/big\.json is 51380224 bytes; a scenario \(or a bundle with its data files\) may have at most 50331648/);
  });
});
