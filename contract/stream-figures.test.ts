import { describe, expect, it } from 'vitest';
import { figureOf, type FigurePhase } from './figures.js';
import type { LatencyStats } from './results.js';
import { Scenario } from './scenario.js';
import { parseThresholdCheck, thresholdValueText } from './thresholds.js';

// Issue 41's frame: a stream template is validated with errors naming its JSON path, and its named
// figures (ttfe, gap, rtt, messages, streams) are resolved by figureOf and accepted by thresholds
// (and so --fail-on and every view that asks figureOf), null where a phase opened no stream.

const stats = (p99: number): LatencyStats => ({ count: 10, mean: p99 / 2, min: 1, max: p99 + 1, stddev: 1, p50: p99 / 2, p66: p99 / 2, p75: p99 / 2, p80: p99 / 2, p90: p99 / 2, p95: p99, p98: p99, p99, p999: p99 });

const phase = (stream?: FigurePhase['stream']): FigurePhase => ({ count: 10, errors: {}, throughput: 1, total: stats(900), wait: null, processing: null, serverWait: null, lag: stats(1), ...(stream !== undefined && { stream }) });

const scenario = (request: Record<string, unknown>, phaseExtra: Record<string, unknown> = {}) => ({
  name: 'sse',
  servers: [{ architecture: 'single' }],
  phases: [{ executor: 'closed', users: 2, durationMs: 1000, ...phaseExtra, requests: [{ path: '/events', ...request }] }],
});

const issuesOf = (input: unknown) => {
  const parsed = Scenario.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('stream templates in a scenario', () => {
  it('an sse stream with its limits: valid, defaults filled', () => {
    const parsed = Scenario.parse(scenario({ stream: { protocol: 'sse', events: 50 } }));
    expect(parsed.phases[0]!.requests[0]!.stream).toEqual({ protocol: 'sse', events: 50, eventTimeoutMs: 30_000, maxEventBytes: 1024 * 1024 });
  });

  it('an unknown protocol, a bad limit, an unknown key: each named by its JSON path', () => {
    expect(issuesOf(scenario({ stream: { protocol: 'mqtt' } }))[0]).toMatch(/^phases\.0\.requests\.0\.stream\.protocol: /);
    expect(issuesOf(scenario({ stream: { protocol: 'sse', eventTimeoutMs: 0 } }))[0]).toMatch(/^phases\.0\.requests\.0\.stream\.eventTimeoutMs: /);
    expect(issuesOf(scenario({ stream: { protocol: 'sse', maxEventBytes: 64 * 1024 * 1024 } }))[0]).toMatch(/^phases\.0\.requests\.0\.stream\.maxEventBytes: /);
    expect(issuesOf(scenario({ stream: { protocol: 'sse', evnets: 3 } }))[0]).toMatch(/^phases\.0\.requests\.0\.stream: .*evnets/);
  });

  it("a stream held past the phase's timeoutMs, a stream with an extract: refused at their paths with the reason", () => {
    expect(issuesOf(scenario({ stream: { protocol: 'sse', durationMs: 5000 } }, { timeoutMs: 5000 }))).toEqual([
      "phases.0.requests.0.stream.durationMs: must be under the phase's timeoutMs (5000 ms): a stream is one request, failed as a timeout at timeoutMs from its send",
    ]);
    expect(issuesOf(scenario({ stream: { protocol: 'sse' }, extract: { var: 'x', from: 'regex', pattern: 'a(b)' } }, { flow: true }))).toEqual([
      "phases.0.requests.0.extract: a stream's messages are not extracted from: leave extract out of a stream request",
    ]);
  });
});

describe('stream figures by name', () => {
  const withStreams = phase({ streams: 4, messages: 400, rate: 40, bytes: 12_000, sent: 3, ttfe: stats(12), gap: stats(250), rtt: null });

  it('ttfe, gap, messages and streams read from the stream figures; rtt unmeasured is null; a phase without streams has none', () => {
    expect(figureOf(withStreams, 'ttfe.p99')).toBe(12);
    expect(figureOf(withStreams, 'gap.p99')).toBe(250);
    expect(figureOf(withStreams, 'gap.max')).toBe(251);
    expect(figureOf(withStreams, 'messages.rate')).toBe(40);
    expect(figureOf(withStreams, 'messages.count')).toBe(400);
    expect(figureOf(withStreams, 'messages.bytes')).toBe(12_000);
    expect(figureOf(withStreams, 'streams.count')).toBe(4);
    expect(figureOf(withStreams, 'rtt.p99')).toBeNull();
    expect(figureOf(phase(), 'ttfe.p99')).toBeNull();
    expect(figureOf(phase(), 'messages.rate')).toBeNull();
  });

  it('thresholds take them: gap.p99 < 50, messages.rate > 100, with their units', () => {
    expect(parseThresholdCheck('gap.p99 < 50')).toEqual({ metric: 'gap.p99', op: '<', limit: 50 });
    expect(parseThresholdCheck('ttfe.p99 <= 200')).toEqual({ metric: 'ttfe.p99', op: '<=', limit: 200 });
    expect(parseThresholdCheck('rtt.p50 < 5')).toEqual({ metric: 'rtt.p50', op: '<', limit: 5 });
    expect(parseThresholdCheck('messages.rate > 100')).toEqual({ metric: 'messages.rate', op: '>', limit: 100 });
    expect(parseThresholdCheck('streams.count >= 1000')).toEqual({ metric: 'streams.count', op: '>=', limit: 1000 });
    expect(thresholdValueText('messages.rate', 100)).toBe('100 msg/s');
    expect(thresholdValueText('gap.p99', 50)).toBe('50 ms');
    expect(Scenario.safeParse({ ...scenario({}), thresholds: [{ check: 'gap.p99 < 50' }] }).success).toBe(true);
  });
});
