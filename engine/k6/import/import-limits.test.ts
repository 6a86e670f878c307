import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requestLine } from '../test-support/k6-points.js';
import { importK6Files } from './import-k6.js';
import { writeLongLineFile, writeManyLinesGzipBomb, writeOneLineGzipBomb } from './test-support/big-inputs.js';
import { useTempStore } from '../../../db/test-support/temp-store.js';

// Hostile k6 result files against a real SQLite file: each is refused with one line naming what was
// wrong and where, and the store is left as it was (no run, not even a damaged one).

const temp = useTempStore();

const good = (i: number) => requestLine({ endMs: 10 + i, totalMs: 5, phase: 0, proc: 1 });
const file = (name: string, lines: string[]) => {
  const path = join(temp.dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
};
/** A request line with one part of its point replaced. */
const edited = (edit: (point: { data: { value: number; time: string; tags: Record<string, string>; metadata: Record<string, string> } }) => void, raw?: [string, string]) => {
  const point = JSON.parse(good(99)) as Parameters<typeof edit>[0];
  edit(point);
  const text = JSON.stringify(point);
  return raw ? text.replace(raw[0], raw[1]) : text;
};

async function refused(paths: string[]): Promise<string> {
  const err = await importK6Files(temp.store, paths).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'the import was accepted').toBeInstanceOf(Error);
  expect(err).toMatchObject({ name: 'LoadscopeError', code: 'LS_ERR_BAD_REQUEST' });
  const message = (err as Error).message;
  expect(message.split('\n')).toHaveLength(1);
  expect(temp.store.listRuns()).toEqual([]);
  return message;
}

describe('k6 import limits', () => {
  it('refuses a point whose value is 1e308, naming the file, the line and the field, and stores no run', async () => {
    const message = await refused([file('huge.json', [good(0), good(1), edited((p) => (p.data.value = 1e308))])]);
    expect(message).toMatch(/^huge\.json line 3: data\.value \(a duration in ms\) 1e\+308 is out of range \(from 0 to 86400000\); nothing was stored$/);
  });

  it('refuses negative and non-finite durations, absurd times, Server-Timing, status and index tags, each by its field', async () => {
    const cases: Array<[string, string]> = [
      [edited((p) => (p.data.value = -5)), 'data.value'],
      [edited((p) => (p.data.value = 1), ['"value":1', '"value":1e999']), 'data.value'], // JSON's Infinity
      [edited((p) => (p.data.time = '9999-12-31T23:59:59.999999999Z')), 'data.time'],
      [edited((p) => (p.data.time = '1970-01-01T00:00:00Z')), 'data.time'],
      [edited((p) => (p.data.metadata.st_proc = '1e308')), 'metadata.st_proc'],
      [edited((p) => (p.data.metadata.st_wait = '-1')), 'metadata.st_wait'],
      [edited((p) => (p.data.tags.status = '1e308')), 'tags.status'],
      [edited((p) => (p.data.tags.cell = '1e308')), 'tags.cell'],
      [edited((p) => (p.data.tags.phase_idx = '-1')), 'tags.phase_idx'],
      [edited((p) => (p.data.tags.server = 'x'.repeat(5000))), 'tags.server'],
    ];
    for (const [line, field] of cases) {
      const message = await refused([file('bad.json', [good(0), line])]);
      expect(message, line.slice(0, 200)).toContain(`bad.json line 2: ${field}`);
    }
    // the same in k6's CSV output: a timestamp in nanoseconds of the year 5138
    const header = 'metric_name,timestamp,metric_value,extra_tags';
    const csv = file('out.csv', [header, 'loadscope_total,1767225600,5,"server=s&ls_result=ok"', 'loadscope_total,99999999999999999999,5,"server=s&ls_result=ok"']);
    expect(await refused([csv])).toMatch(/^out\.csv line 3: data\.time/);
  });

  it('refuses a line over 1 MiB, naming the limit and the line, instead of skipping it', async () => {
    const path = join(temp.dir, 'long.json');
    await writeLongLineFile(path, 1024 * 1024 + 4096);
    expect(await refused([path])).toBe('long.json line 3 is longer than 1 MiB, the most one k6 result line may have; nothing was stored');
    const csv = join(temp.dir, 'long.csv');
    writeFileSync(csv, `metric_name,timestamp,metric_value,extra_tags\nloadscope_total,1767225600,5,"${'x'.repeat(1024 * 1024 + 10)}"\n`);
    expect(await refused([csv])).toMatch(/^long\.csv line 2 is longer than 1 MiB/);
  });

  it('refuses a k6 CSV with a stray quote naming its line, quoting none of the record', async () => {
    const csv = file('quote.csv', ['metric_name,timestamp,metric_value,extra_tags', 'loadscope_total,1767225600,5,server=s&token=hunter2secret"x"']);
    const message = await refused([csv]);
    expect(message).not.toContain('hunter');
    expect(message).toBe('quote.csv line 2 is not a CSV record (INVALID_OPENING_QUOTE); nothing was stored');
  });

  it('refuses a small gzip that expands to one 600 MiB line, and one that expands past 200 times its size in short lines', async () => {
    const bomb = join(temp.dir, 'bomb.json.gz');
    await writeOneLineGzipBomb(bomb, 600);
    expect(await refused([bomb])).toMatch(/^bomb\.json\.gz line 1 is longer than 1 MiB/);
    const wide = join(temp.dir, 'wide.json.gz');
    await writeManyLinesGzipBomb(wide, 80);
    expect(await refused([wide])).toMatch(/^wide\.json\.gz is gzip that expands past 64 MiB \(200 times its size, or 64 MiB\)/);
  });

  it('refuses more server runs than a scenario may have, without holding them all', async () => {
    const lines = Array.from({ length: 1001 }, (_, i) => requestLine({ endMs: 10 + i, totalMs: 5, phase: 0, server: `s${i}` }));
    expect(await refused([file('many.json', lines)])).toMatch(/^many\.json line 1001: more than 1000 server runs/);
  });
});
