import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';
import { createScenario } from '../engine/scenario/test-support/factories.js';

// A stored run's stream figures per endpoint (issue 41), as `show`, `show --json` and the summary CSV
// give them: one phase of two SSE endpoints on a real bundled server, stored in a real SQLite file.
// They differ where no machine's speed can blur them: 'fast' sends 2 events a stream at once,
// 'slow' 6 events after firstMs 300 (its time to first event is never less: it counts from the
// stream's intended start). A view that showed the phase's figures for both, or swapped them, is
// caught by the messages a stream and by slow's ttfe; nothing asserts how fast the machine is.

const BIN = rootPath('bin/loadscope.js');
let dir: string;
let db: string;
let runId: number;

const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, '--db', db], { encoding: 'utf8', timeout: 240_000 });

interface StreamJson {
  streams: number;
  messages: number;
  ttfe: { p50: number; p99: number } | null;
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
              { name: 'fast', path: '/events?n=2&gapMs=10&size=8', stream: { protocol: 'sse' } },
              { name: 'slow', path: '/events?n=6&gapMs=10&size=8&firstMs=300', stream: { protocol: 'sse' } },
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
  it('show --json: each endpoint carries its own streams, messages and times, adding up to the phase\'s', () => {
    const out = cli(['show', String(runId), '--json']);
    expect(out.status, out.stderr).toBe(0);
    const phase = (JSON.parse(out.stdout) as { servers: { phases: { stream: StreamJson; endpoints: { name: string; stream: StreamJson | null }[] }[] }[] }).servers[0]!.phases[0]!;
    const [fast, slow] = phase.endpoints;
    expect([fast!.name, slow!.name]).toEqual(['fast', 'slow']);
    // templates are picked by weight: each endpoint's count is its own, together the phase's
    expect(fast!.stream!.streams + slow!.stream!.streams).toBe(phase.stream.streams);
    expect(phase.stream.streams).toBe(16);
    expect([fast!.stream!.messages, slow!.stream!.messages]).toEqual([2 * fast!.stream!.streams, 6 * slow!.stream!.streams]);
    expect(phase.stream.messages).toBe(fast!.stream!.messages + slow!.stream!.messages);
    expect(slow!.stream!.ttfe!.p50).toBeGreaterThanOrEqual(299);
  });

  it('show: a streams line per endpoint under the phase\'s, each with its own messages and times', () => {
    const out = cli(['show', String(runId)]);
    expect(out.status, out.stderr).toBe(0);
    const lines = out.stdout.split('\n').filter((l) => l.startsWith('streams: single'));
    expect(lines.map((l) => l.slice(0, l.indexOf(':', 9)))).toEqual(['streams: single / feeds', 'streams: single / feeds · fast', 'streams: single / feeds · slow']);
    const streamsOf = (line: string) => Number(/: (\d+) streams?/.exec(line)![1]!);
    const messagesOf = (line: string) => Number(/ · ([\d,]+) messages/.exec(line)![1]!.replace(/,/g, ''));
    expect(streamsOf(lines[1]!) + streamsOf(lines[2]!)).toBe(16);
    expect([messagesOf(lines[1]!), messagesOf(lines[2]!)]).toEqual([2 * streamsOf(lines[1]!), 6 * streamsOf(lines[2]!)]);
    expect(Number(/ttfe p50 ([\d.,]+)/.exec(lines[2]!)![1]!.replace(/,/g, ''))).toBeGreaterThanOrEqual(299);
  });

  it('export --csv --summary: the endpoint rows carry their own stream columns, the phase row the whole', () => {
    const file = join(dir, 'summary.csv');
    const out = cli(['export', String(runId), '--csv', file, '--summary']);
    expect(out.status, out.stderr).toBe(0);
    const rows = parse(readFileSync(file, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.endpoint)).toEqual(['', 'fast', 'slow']);
    const [phase, fast, slow] = rows.map((r) => ({ streams: Number(r.streams), messages: Number(r.messages) }));
    expect(fast!.streams + slow!.streams).toBe(phase!.streams);
    expect([phase!.messages, fast!.messages, slow!.messages]).toEqual([fast!.messages + slow!.messages, 2 * fast!.streams, 6 * slow!.streams]);
    expect(Number(rows[2]!.ttfe_p50_ms)).toBeGreaterThanOrEqual(299);
    // rtt: an SSE stream sends nothing, so nothing to time: empty, not 0
    expect(rows[1]!.rtt_p99_ms).toBe('');
  });
});
