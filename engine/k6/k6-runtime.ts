// The fixed part of every generated k6 script: it runs inside k6 (goja, ES modules), not in Node, so
// it is kept as text. The generated part is `const PLAN = {...}` above it (see k6-script.ts).
//
// Per request it adds one `loadscope_total` point tagged with the outcome (ls_result: ok or an error
// kind, classified as the native driver does), the status and the request's name, with the server's Server-Timing as
// point metadata (st_wait, st_proc): one line per request in `--out json`, which is what
// `loadscope import-k6` reads. The trends loadscope_wait / _proc / _server_wait are for k6's own
// summary and thresholds, as are loadscope_requests (Counter), loadscope_error_count (Counter) and
// loadscope_errors (Rate), one point each per request, for count and error thresholds. In a process
// with an execution segment every point of a VU carries ls_instance, the k6 process (runner) that
// sent it: what import-k6 tells instances apart by.

export const K6_RUNTIME = String.raw`
const TARGET = String(__ENV.LOADSCOPE_TARGET || PLAN.target).replace(/\/+$/, '');
const SEGMENT = __ENV.LOADSCOPE_SEGMENT === undefined || __ENV.LOADSCOPE_SEGMENT === '' ? null : Number(__ENV.LOADSCOPE_SEGMENT);

const total = new Trend('loadscope_total', true);
const wait = new Trend('loadscope_wait', true);
const proc = new Trend('loadscope_proc', true);
const serverWait = new Trend('loadscope_server_wait', true);
const requests = new Counter('loadscope_requests');
const errorCount = new Counter('loadscope_error_count');
const errors = new Rate('loadscope_errors');
// a request not sent for want of a unique data row (k6-data-out.ts reads these for the run's note)
const dataOut = new Counter('loadscope_data_out');

function buildScenarios() {
  const out = {};
  for (const s of PLAN.scenarios) {
    if (SEGMENT !== null && SEGMENT !== s.segment) continue;
    const offset = SEGMENT === null ? PLAN.offsets[s.segment] : 0;
    const phase = PLAN.phases[s.phaseIndex];
    out[s.key] = Object.assign({}, s.options, {
      startTime: String(s.startMs + offset) + 'ms',
      exec: 'runPhase',
      tags: { ls_scenario: PLAN.scenario, phase: phase.name, phase_idx: String(s.phaseIndex), server: PLAN.server, cell: String(PLAN.cell), segment: String(s.segment) },
    });
  }
  return out;
}

export const options = {
  scenarios: buildScenarios(),
  thresholds: PLAN.thresholds,
  // Load stays where the scenario sends it: a redirect is recorded, not followed, and k6 refuses to
  // connect to any address in PLAN.blockedIPs (everything off this machine, unless --allow-remote).
  maxRedirects: 0,
  blacklistIPs: PLAN.blockedIPs,
  // tls.servername in a run here: the target URL names it, and it resolves to the target's address
  hosts: PLAN.hosts,
  // the server's tls.insecure and client certificate, as the scenario says (h2 is negotiated by ALPN)
  insecureSkipTLSVerify: PLAN.tls.insecure,
  tlsAuth: PLAN.tls.auth,
  discardResponseBodies: true,
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(99)', 'max'],
};

// The runner's instance, tag ls_instance on every point it writes: none of the script's own when k6
// was given --tag ls_instance=K (loadscope run --instances: k6 tags every point), else the index
// of its execution segment in the sequence (the k6-operator gives runner K the K-th segment; its own
// tag instance_id is K + 1). A process without a segment is the only one: no tag, as before instances.
// Read once per VU: the test's options are not readable in init code.
let INSTANCE = null;
function fraction(text) {
  const [n, d] = String(text).split('/');
  return Number(n) / (d === undefined ? 1 : Number(d));
}
function instanceOf(o) {
  if (o.tags && o.tags.ls_instance !== undefined) return '';
  if (!o.executionSegment) return '';
  const bounds = String(o.executionSegment).split(':');
  const from = bounds.length > 1 ? fraction(bounds[0]) : 0;
  const to = fraction(bounds[bounds.length - 1]);
  const sequence = o.executionSegmentSequence ? String(o.executionSegmentSequence).split(',').map(fraction) : [];
  const at = sequence.findIndex((s) => Math.abs(s - from) < 1e-9);
  // without a sequence, segments of equal width
  return String(at >= 0 ? at : to > from ? Math.round(from / (to - from)) : 0);
}
function tagInstance() {
  if (INSTANCE === null) INSTANCE = instanceOf(exec.test.options);
  if (INSTANCE !== '') exec.vu.metrics.tags.ls_instance = INSTANCE;
}

const BY_SCENARIO = {};
for (const s of PLAN.scenarios) BY_SCENARIO[s.key] = PLAN.phases[s.phaseIndex];

function pick(templates) {
  if (templates.length === 1) return templates[0];
  const r = Math.random() * templates[templates.length - 1].upTo;
  for (const t of templates) if (r < t.upTo) return t;
  return templates[templates.length - 1];
}

// Server-Timing: wait;dur=1.5, proc;dur=42.25 (ms); other metrics are ignored.
function serverTiming(header) {
  const out = { wait: null, proc: null };
  if (!header) return out;
  for (const part of String(header).split(',')) {
    const fields = part.split(';');
    const name = fields[0].trim().toLowerCase();
    if (name !== 'wait' && name !== 'proc') continue;
    for (const f of fields.slice(1)) {
      const m = /^\s*dur\s*=\s*"?([0-9.]+)"?\s*$/i.exec(f);
      if (m) out[name] = Number(m[1]);
    }
  }
  return out;
}

// The native driver's error kinds (contract/results.ts ERROR_KINDS): a transport error from k6's
// error codes, else the response's checks (k6-runtime-request.ts); each check also a k6 check()
// under the native driver's name for it, tagged with the endpoint.
function transportError(res) {
  const code = res.error_code || 0;
  if (code === 0 || (code >= 1400 && code < 1600)) return null;
  if (code === 1050 || code === 1210 || code === 1211) return 'timeout';
  if (code === 1212) return 'refused';
  if (code === 1220 || /reset|broken pipe/i.test(String(res.error))) return 'reset';
  // Go's net/http refusing a malformed response (k6 has no code of its own for it: 1000)
  if (/malformed|bad Content-Length|multiple Content-Length|chunk length|chunked encoding/i.test(String(res.error))) return 'protocol';
  return 'other';
}

function judge(res, t, r) {
  const failed = transportError(res);
  if (failed !== null) return failed;
  const passed = t.checks.map((ch) => passes(ch, res, r));
  if (t.checks.length > 0) {
    const named = {};
    t.checks.forEach((ch, i) => Object.defineProperty(named, ch.name, { value: () => passed[i], enumerable: true }));
    check(res, named, { name: t.name });
  }
  return checkFailure(t, res.status, passed);
}

// a flow's user (one per VU and phase): its step and variables, kept across iterations
const FLOW_USERS = new Map();
const NO_VARS = new Map();

// a flow step ended: extract on success, then the next step; any error: the first step, no variables
function flowStep(user, p, t, res, r, kind) {
  if (kind === 'ok' && t.extract !== null) {
    const value = extractValue(t.extract, res, r);
    if (value === null) kind = 'extract';
    else user.vars.set(t.extract.var, value);
  }
  if (kind === 'ok' && user.step + 1 < p.templates.length) user.step++;
  else { user.step = 0; user.vars = new Map(); }
  return kind;
}

// no row left in a unique data file: nothing is sent; a closed loop's user idles to its phase's end
function dataRanOut(p) {
  dataOut.add(1);
  if (!p.idleWhenOut || p.lengthMs === null) return;
  const left = p.lengthMs - (Date.now() - exec.scenario.startTime);
  if (left > 0) sleep(left / 1000);
}

function headersOf(t, inputs) {
  const headers = {};
  for (const h of t.headers) Object.defineProperty(headers, h[0], { value: fill(h[1], inputs), enumerable: true, writable: true, configurable: true });
  return headers;
}

// k6's own http_req_failed follows the first status check
function statusCallback(t) {
  const statuses = t.checks.find((ch) => ch.kind === 'status');
  return statuses === undefined ? null : http.expectedStatuses.apply(null, statuses.ranges.map((range) => ({ min: range[0], max: range[1] })));
}

export function runPhase() {
  tagInstance();
  const key = exec.scenario.name;
  const p = BY_SCENARIO[key];
  let user = null;
  if (p.flow) {
    user = FLOW_USERS.get(key);
    if (user === undefined) { user = { step: 0, vars: new Map() }; FLOW_USERS.set(key, user); }
  }
  const t = user === null ? pick(p.templates) : p.templates[user.step];
  let row = null;
  if (p.data !== null && t.readsData) {
    row = rowFor(p.data);
    if (row === null) return dataRanOut(p);
  }
  // a template without placeholders is built once per VU (its headers and status callback kept on it)
  const inputs = t.fixed ? null : { counter: exec.scenario.iterationInTest + 1, user: exec.vu.idInTest, row: row, vars: user === null ? NO_VARS : user.vars, now: Date.now() };
  // a WebSocket session or gRPC call (k6-runtime-stream.ts); a flow goes on to its next step (a stream extracts nothing)
  if (t.stream !== null) {
    if (user !== null) user.step = (user.step + 1) % p.templates.length;
    return runStream(p, t, inputs);
  }
  const headers = t.fixed && t.builtHeaders !== undefined ? t.builtHeaders : headersOf(t, inputs);
  if (t.fixed) t.builtHeaders = headers;
  const params = {
    headers: headers,
    timeout: String(p.timeoutMs) + 'ms',
    tags: { name: t.name },
    responseType: t.readsBody ? 'text' : 'none',
  };
  if (t.statusCallback === undefined) t.statusCallback = statusCallback(t);
  if (t.statusCallback !== null) params.responseCallback = t.statusCallback;
  const res = http.request(t.method, TARGET + fill(t.path, inputs), t.body === null ? null : fill(t.body, inputs), params);
  const r = responseOf(res, t);
  let kind = judge(res, t, r);
  if (user !== null) kind = flowStep(user, p, t, res, r, kind);

  const tm = res.timings;
  // From the first attempt to get a connection to the last byte: what the native driver calls total,
  // minus any wait before sending that k6 does not see (it has no intended time).
  const totalMs = tm.blocked + tm.connecting + tm.tls_handshaking + tm.duration;
  const st = serverTiming(res.headers['Server-Timing']);
  const md = exec.vu.metrics.metadata;
  if (st.proc !== null) md.st_proc = String(st.proc);
  if (st.wait !== null) md.st_wait = String(st.wait);
  total.add(totalMs, { ls_result: kind, status: String(res.status), name: t.name });
  delete md.st_proc;
  delete md.st_wait;
  requests.add(1);
  errorCount.add(kind === 'ok' ? 0 : 1);
  errors.add(kind !== 'ok');
  if (kind !== 'refused') {
    wait.add(st.proc === null ? totalMs : Math.max(0, totalMs - st.proc));
    if (st.proc !== null) proc.add(st.proc);
    if (st.wait !== null) serverWait.add(st.wait);
  }
  // a flow step's own pause, else the phase's
  const thinkMs = t.thinkMs !== null ? t.thinkMs : p.thinkMs;
  if (thinkMs > 0) sleep(thinkMs / 1000);
}
`;
