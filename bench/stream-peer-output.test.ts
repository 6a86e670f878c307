import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ghzFigures, k6EchoFigures, loadscopeStreamFigures } from './stream-peer-output.mjs';

// The streams bench's readers of each generator's own output (bench/stream-peer-output.mjs), held
// to real output captured on this machine (bench/test-support/): ghz's JSON report of Fib calls at
// 200/s (and of a run against a closed port), k6's summary data of bench/k6-ws-echo.js (and of one
// whose every session was refused), `loadscope run --json` of a gRPC and a WebSocket phase. A
// figure the output lacks is an error, never a zero in the table.
const sample = (name: string) => readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'test-support', name), 'utf8');

describe('ghz --format json', () => {
  it('a run cut at its -z deadline: the OK calls, p99 in ms, the one cancelled call not an error', () => {
    expect(ghzFigures(sample('ghz-fib.json'))).toEqual({ done: 399, p99Ms: 32.147758, errors: 0 });
  });

  it('a call that failed for the target: counted as an error beside the OK ones', () => {
    const out = JSON.parse(sample('ghz-fib.json'));
    out.statusCodeDistribution.Unavailable = 2;
    out.errorDistribution['rpc error: code = Unavailable desc = connection error'] = 2;
    expect(ghzFigures(JSON.stringify(out)).errors).toBe(2);
  });

  it('every call refused (no latency distribution): an error naming the reason, not a zero', () => {
    expect(() => ghzFigures(sample('ghz-fib-refused.json'))).toThrow(/^ghz: no call completed: .*connection refused/);
  });

  it('output that is not JSON: an error quoting it', () => {
    expect(() => ghzFigures('Error: open grpc-bench.proto: no such file')).toThrow(/^ghz: output is not JSON: Error: open/);
  });
});

describe("k6's summary data of bench/k6-ws-echo.js", () => {
  it('a clean run: echoes matched, their p99 in ms, no failures (a counter never added to is absent)', () => {
    expect(k6EchoFigures(sample('k6-ws-echo-summary.json'))).toEqual({ done: 8300, p99Ms: 33, errors: 0 });
  });

  it('every session refused: an error with the failures, not a zero', () => {
    expect(() => k6EchoFigures(sample('k6-ws-echo-refused-summary.json'))).toThrow(/^k6: no echo came back; 3837 session\(s\) failed$/);
  });

  it('a summary without the echo metrics (another script): an error naming the metrics it has', () => {
    expect(() => k6EchoFigures(JSON.stringify({ metrics: { iterations: { values: { count: 3 } } } }))).toThrow(/^k6: no echo_replies count or echo_rtt p\(99\) in its summary \(metrics: iterations\)$/);
  });
});

describe('loadscope run --json', () => {
  it("a gRPC unary phase: completed calls, the total p99 and the phase's lag p99", () => {
    expect(loadscopeStreamFigures(sample('loadscope-grpc-run.json'), 'grpc')).toEqual({ done: 400, p99Ms: 125.247, errors: 0, lagP99Ms: 54.207 });
  });

  it('a WebSocket echo phase: messages received and the rtt p99, not the sessions', () => {
    expect(loadscopeStreamFigures(sample('loadscope-ws-run.json'), 'ws')).toEqual({ done: 10590, p99Ms: 32.895, errors: 0, lagP99Ms: 34.303 });
  });

  it('failed calls: subtracted from the completed ones and counted', () => {
    const run = JSON.parse(sample('loadscope-grpc-run.json'));
    run.servers[0].phases[0].errors.grpc = 7;
    expect(loadscopeStreamFigures(JSON.stringify(run), 'grpc')).toMatchObject({ done: 393, errors: 7 });
  });

  it('a run that did not complete: an error with its reason', () => {
    const run = JSON.parse(sample('loadscope-ws-run.json'));
    Object.assign(run, { status: 'failed', reason: 'the target refused' });
    expect(() => loadscopeStreamFigures(JSON.stringify(run), 'ws')).toThrow(/^loadscope run ended failed: the target refused$/);
  });

  it('a WebSocket phase with no round trip timed (a script without expect): an error, not a zero p99', () => {
    const run = JSON.parse(sample('loadscope-ws-run.json'));
    run.servers[0].phases[0].stream.rtt = null;
    expect(() => loadscopeStreamFigures(JSON.stringify(run), 'ws')).toThrow(/no round trips timed/);
  });
});
