import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';
import { createScenario } from '../engine/scenario/test-support/factories.js';

// A stored run's stream figures per endpoint (issue 41), as `show`, `show --json` and the summary CSV
// give them: one phase of two SSE endpoints whose events come 30 and 150 ms apart on a real bundled
// server, stored in a real SQLite file. Each endpoint's gap is its own server timer (at least 30 and
// 150 ms however slow the machine), so a view that showed the phase's figures for both, or swapped
// them, is caught by their order alone; nothing asserts how fast the machine is.

const BIN = rootPath('bin/loadscope.js');
let dir: string;
let db: string;
let runId: number;

const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, '--db', db], { encoding: 'utf8', timeout: 240_000 });

interface StreamJson {
  streams: number;
  messages: number;
  gap: { p50: number; p99: number } | null;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-stream-endpoints-'));
  db = join(dir, 'runs.db');
  const file = join(dir, 'two-feeds.json');
  writeFileSync(
    file,
    JSON.stringify(
      createScenario({
        name: 'two-feeds',
        servers: [{ architecture: 'single' }],
        phases: [
          {
            executor: 'closed',
            name: 'feeds',
            users: 2,
            count: 16,
            timeoutMs: 10_000,
            requests: [
              { name: 'fast', path: '/events?n=4&gapMs=30&size=8', stream: { protocol: 'sse' } },
              { name: 'slow', path: '/events?n=4&gapMs=150&size=8', stream: { protocol: 'sse' } },
            ],
          },
        ],
      }),
    ),
  );
  const out = cli(['run', file, '--json']);
  expect(out.status, out.stderr).toBe(0);
  runId = (JSON.parse(out.stdout) as { runId: number }).runId;
}, 240_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('a stored run\'s stream figures per endpoint', () => {
  it('show --json: each endpoint carries its own streams, messages and gaps, adding up to the phase\'s', () => {
    const out = cli(['show', String(runId), '--json']);
    expect(out.status, out.stderr).toBe(0);
    const phase = (JSON.parse(out.stdout) as { servers: { phases: { stream: StreamJson; endpoints: { name: string; stream: StreamJson | null }[] }[] }[] }).servers[0]!.phases[0]!;
    const [fast, slow] = phase.endpoints;
    expect([fast!.name, slow!.name]).toEqual(['fast', 'slow']);
    // templates are picked by weight: each endpoint's count is its own, together the phase's; 4 events a stream
    expect(fast!.stream!.streams + slow!.stream!.streams).toBe(phase.stream.streams);
    expect(phase.stream.streams).toBe(16);
    for (const e of [fast!, slow!]) expect(e.stream!.messages).toBe(4 * e.stream!.streams);
    expect(fast!.stream!.gap!.p50).toBeGreaterThanOrEqual(29);
    expect(slow!.stream!.gap!.p50).toBeGreaterThanOrEqual(149);
    expect(slow!.stream!.gap!.p50).toBeGreaterThan(fast!.stream!.gap!.p50);
  });

  it('show: a streams line per endpoint under the phase\'s, each with its own gap', () => {
    const out = cli(['show', String(runId)]);
    expect(out.status, out.stderr).toBe(0);
    const lines = out.stdout.split('\n').filter((l) => l.startsWith('streams: single'));
    expect(lines.map((l) => l.slice(0, l.indexOf(':', 9)))).toEqual(['streams: single / feeds', 'streams: single / feeds · fast', 'streams: single / feeds · slow']);
    const gapP50 = (line: string) => Number(/gap p50 ([\d.,]+)/.exec(line)![1]!.replace(/,/g, ''));
    expect(lines[1]).toMatch(/^streams: single \/ feeds · fast: \d+ streams? · \d+ messages /);
    expect(gapP50(lines[2]!)).toBeGreaterThan(gapP50(lines[1]!));
  });

  it('export --csv --summary: the endpoint rows carry their own stream columns, the phase row the whole', () => {
    const file = join(dir, 'summary.csv');
    const out = cli(['export', String(runId), '--csv', file, '--summary']);
    expect(out.status, out.stderr).toBe(0);
    const rows = parse(readFileSync(file, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.endpoint)).toEqual(['', 'fast', 'slow']);
    expect(rows.map((r) => Number(r.streams))).toEqual([16, Number(rows[1]!.streams), 16 - Number(rows[1]!.streams)]);
    for (const r of rows) expect(Number(r.messages)).toBe(4 * Number(r.streams));
    expect(Number(rows[2]!.gap_p50_ms)).toBeGreaterThan(Number(rows[1]!.gap_p50_ms));
    expect(Number(rows[1]!.gap_p50_ms)).toBeGreaterThanOrEqual(29);
    // rtt: an SSE stream sends nothing, so nothing to time: empty, not 0
    expect(rows[1]!.rtt_p99_ms).toBe('');
  });
});
