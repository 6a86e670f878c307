import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { messageLine, requestLine } from '../test-support/k6-points.js';
import { importK6Files } from './import-k6.js';
import { useTempStore } from '../../../db/test-support/temp-store.js';

// A k6 run's streams (issue 41) come back as the native driver's stream figures: each stream's
// loadscope_total point ends a stream (what it sent, the gap an error cut), each loadscope_ttfe /
// loadscope_gap point is one message (its bytes, its round trip), per phase and per endpoint, into
// a real SQLite file. Hostile numbers on those points are refused with the file, line and field
// named, and nothing is stored.

const temp = useTempStore();

const file = (name: string, lines: string[]) => {
  const path = join(temp.dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
};

/** Two WebSocket sessions of endpoint 'echo' (two replies each, 2 sends), one cut after its first message, beside a plain request. */
const sessions = [
  messageLine({ endMs: 10, phase: 0, name: 'echo', first: true, ms: 4, bytes: 8, rtt: 1.5 }),
  messageLine({ endMs: 12, phase: 0, name: 'echo', first: false, ms: 2, bytes: 8, rtt: 0.5 }),
  requestLine({ endMs: 13, totalMs: 6, phase: 0, name: 'echo', status: 101, stream: { sent: 2 } }),
  messageLine({ endMs: 20, phase: 0, name: 'echo', first: true, ms: 3, bytes: 16 }),
  requestLine({ endMs: 50, totalMs: 33, phase: 0, name: 'echo', status: 101, result: 'idle', stream: { sent: 1, openGap: 30 } }),
  requestLine({ endMs: 60, totalMs: 2, phase: 0, name: 'GET /fib' }),
];

describe('import-k6 streams', () => {
  it('stream ends and messages: the phase and its endpoint get streams, messages, bytes, sent, ttfe, gap (an error\'s open gap included) and rtt', async () => {
    const { runId } = await importK6Files(temp.store, [file('streams.json', sessions)]);
    const phase = temp.store.getRun(runId).targets[0]!.phases[0]!;
    expect([phase.count, phase.ok, phase.errors.idle]).toEqual([3, 2, 1]);
    const echo = phase.endpoints!.find((e) => e.name === 'echo')!;
    for (const s of [phase.stream!, echo.stream!]) {
      expect([s.streams, s.messages, s.bytes, s.sent]).toEqual([2, 3, 32, 3]);
      expect([s.ttfe?.count, s.gap?.count, s.rtt?.count]).toEqual([2, 2, 2]);
      // the open gap of the session an error cut (30 ms) is a gap too, as natively
      expect(s.gap!.max).toBeGreaterThanOrEqual(29.9);
      expect(s.rtt!.max).toBeCloseTo(1.5, 1);
    }
    // the plain request has no stream figures of its own
    expect(phase.endpoints!.find((e) => e.name === 'GET /fib')!.stream).toBeUndefined();
    // message points are not requests: one row per stream or request
    expect([...temp.store.iterateRequests(runId)]).toHaveLength(3);
  });

  it.each([
    ['ls_bytes of 1e300', messageLine({ endMs: 10, phase: 0, first: true, ms: 1, bytes: 1e300 }), /^bad\.json line 2: metadata\.ls_bytes 1e\+300 is out of range/],
    ['a negative gap', messageLine({ endMs: 10, phase: 0, first: false, ms: -1 }), /^bad\.json line 2: data\.value \(gap in ms\) -1 is out of range/],
    ['an rtt that is no number', messageLine({ endMs: 10, phase: 0, first: false, ms: 1, rtt: 'soon' }), /^bad\.json line 2: metadata\.ls_rtt \(ms\) NaN is out of range/],
    ['a negative count sent', requestLine({ endMs: 10, totalMs: 1, phase: 0, stream: { sent: -3 } }), /^bad\.json line 2: metadata\.ls_sent -3 is out of range/],
    ['an open gap of 1e20 ms', requestLine({ endMs: 10, totalMs: 1, phase: 0, result: 'idle', stream: { sent: 0, openGap: 1e20 } }), /^bad\.json line 2: metadata\.ls_open_gap \(ms\) 100000000000000000000 is out of range/],
  ])('a stream point with %s: refused in one line naming the file, line and field; no run stored', async (_what, line, reason) => {
    const err = await importK6Files(temp.store, [file('bad.json', [requestLine({ endMs: 5, totalMs: 1, phase: 0 }), line])]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'LS_ERR_BAD_REQUEST' });
    expect((err as Error).message).toMatch(reason);
    expect((err as Error).message.split('\n')).toHaveLength(1);
    expect(temp.store.listRuns()).toEqual([]);
  });
});
