// What each generator of the streams bench (bench/streams.mjs) says it did, read off its own
// output: ghz's JSON report, k6's summary data (written by bench/k6-ws-echo.js's handleSummary)
// and `loadscope run --json`. Each reader returns the completed calls or messages, the p99 in ms and
// the errors; output without the figure it must carry is an error of the bench, never a zero.

/** One generator's figures: what completed, its p99 (ms) and what failed. */
const figures = (done, p99Ms, errors) => ({ done, p99Ms, errors });

function parsed(text, who) {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${who}: output is not JSON: ${String(text).slice(0, 200)}`);
  }
}

// ghz cancels the calls still in flight when its -z duration ends ("the client connection is
// closing"): the bench's cut, not the target's failure, as oha's "aborted due to deadline"
const GHZ_CUT = /client connection is closing/i;

/** ghz --format json: OK calls, the p99 of its latency distribution (ns there), errors other than the cut at the deadline. */
export function ghzFigures(jsonText) {
  const out = parsed(jsonText, 'ghz');
  const ok = Number(out.statusCodeDistribution?.OK ?? 0);
  if (ok === 0) throw new Error(`ghz: no call completed: ${JSON.stringify(out.errorDistribution ?? null).slice(0, 300)}`);
  const p99 = (out.latencyDistribution ?? []).find((d) => d.percentage === 99);
  if (p99 === undefined || !Number.isFinite(p99.latency)) throw new Error(`ghz: no p99 in its latency distribution: ${JSON.stringify(out.latencyDistribution ?? null).slice(0, 200)}`);
  const errors = Object.entries(out.errorDistribution ?? {})
    .filter(([reason]) => !GHZ_CUT.test(reason))
    .reduce((sum, [, n]) => sum + Number(n), 0);
  return figures(ok, p99.latency / 1e6, errors);
}

/** k6's summary data of bench/k6-ws-echo.js: echoes matched, their round trip's p99 (ms), sessions that failed. */
export function k6EchoFigures(summaryText) {
  const metrics = parsed(summaryText, 'k6')?.metrics ?? {};
  const replies = metrics.echo_replies?.values?.count;
  const p99 = metrics.echo_rtt?.values?.['p(99)'];
  const failures = metrics.echo_failures?.values?.count ?? 0;
  if (replies === undefined && failures > 0) throw new Error(`k6: no echo came back; ${failures} session(s) failed`);
  if (!Number.isInteger(replies) || !Number.isFinite(p99)) throw new Error(`k6: no echo_replies count or echo_rtt p(99) in its summary (metrics: ${Object.keys(metrics).join(', ')})`);
  // a Counter never added to is absent from the summary
  return figures(replies, p99, failures);
}

/**
 * `loadscope run --json` of one external server and one phase: a gRPC call's completed calls and
 * total p99, or a WebSocket run's messages and rtt p99; with the phase's lag p99 (sent − intended),
 * so a tail that is the generator's own shows as such.
 */
export function loadscopeStreamFigures(runText, protocol) {
  const run = parsed(runText, 'loadscope run');
  if (run.status !== 'completed') throw new Error(`loadscope run ended ${run.status}: ${run.reason}`);
  const phase = run.servers?.[0]?.phases?.[0];
  if (phase?.stream === undefined || phase.stream === null) throw new Error('loadscope run: its phase has no stream figures');
  const errors = Object.values(phase.errors).reduce((a, b) => a + b, 0);
  const lagP99Ms = phase.lag?.p99 ?? null;
  if (protocol === 'grpc') return { ...figures(phase.count - errors, phase.total.p99, errors), lagP99Ms };
  if (phase.stream.rtt === null) throw new Error('loadscope run: no round trips timed (rtt)');
  return { ...figures(phase.stream.messages, phase.stream.rtt.p99, errors), lagP99Ms };
}
