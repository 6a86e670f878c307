// The part of the k6 runtime that runs a stream template (issue 41) as the native driver does: a
// WebSocket session (k6/websockets) with its script, hold, pings and bounds
// (engine/driver/transport/ws-session.ts), a gRPC call, unary or server-streaming (k6/net/grpc),
// its status as the native kinds (engine/driver/transport/grpc-errors.ts). One stream is one k6
// iteration and one request: its `loadscope_total` point is tagged ls_stream and carries what was
// sent and the gap an error ended it in (metadata ls_sent, ls_open_gap); each message is one point
// of `loadscope_ttfe` (a stream's first) or `loadscope_gap` (since the previous), its size in
// metadata ls_bytes and the round trip of the send it answered in ls_rtt (also a `loadscope_rtt`
// point, for k6's own summary and thresholds); import-k6 puts them into the same stream figures as
// the native driver's (import/k6-stream-point.ts).
//
// What k6 does not let it do as natively, said in docs/scale-out.md: a WebSocket frame is read whole
// before its size is judged (no maxPayload in k6/websockets), a gRPC message's wire size is not
// known (messages.bytes counts none), a gRPC stream cannot be cancelled (past `messages` or
// durationMs the rest is left unread until the server ends it or its deadline).

export const K6_RUNTIME_STREAM = String.raw`
const ttfeTrend = new Trend('loadscope_ttfe', true);
const gapTrend = new Trend('loadscope_gap', true);
const rttTrend = new Trend('loadscope_rtt', true);

// milliseconds, as finely as k6 tells them
const clock = typeof performance === 'object' && performance !== null && typeof performance.now === 'function' ? () => performance.now() : () => Date.now();
const ORIGIN = (/^[a-z]+:\/\/[^\/?#]+/i.exec(TARGET) || [TARGET])[0];
const HOST_PORT = ORIGIN.replace(/^[a-z]+:\/\//i, '');
const OVER_TLS = /^https:/i.test(ORIGIN);

// gRPC clients: one per .proto and receive bound, loaded once per VU (init code), connected on first use
const GRPC_CLIENTS = new Map();
for (const p of PLAN.phases) {
  for (const t of p.templates) {
    if (t.stream === null || t.stream.protocol !== 'grpc') continue;
    const key = grpcKey(t.stream);
    if (GRPC_CLIENTS.has(key)) continue;
    const client = new grpc.Client();
    client.load([t.stream.protoDir], t.stream.protoFile);
    GRPC_CLIENTS.set(key, { client: client, connected: false });
  }
}
function grpcKey(s) {
  return s.protoDir + '\u0000' + s.protoFile + '\u0000' + String(s.maxMessageBytes);
}

// One stream's measures as it runs: what import-k6 needs of it
function streamTally(t) {
  return { name: t.name, started: clock(), messages: 0, last: NaN, sent: 0 };
}
// one message received; rttMs: the round trip of the send it answered (NaN: none)
function messageIn(tally, bytes, rttMs) {
  const now = clock();
  const md = exec.vu.metrics.metadata;
  md.ls_bytes = String(bytes);
  if (rttMs === rttMs) {
    md.ls_rtt = String(rttMs);
    rttTrend.add(rttMs, { name: tally.name });
  }
  if (tally.messages === 0) ttfeTrend.add(now - tally.started, { name: tally.name });
  else gapTrend.add(now - tally.last, { name: tally.name });
  delete md.ls_bytes;
  delete md.ls_rtt;
  tally.messages++;
  tally.last = now;
}
function streamEnded(tally, kind, status) {
  const now = clock();
  const md = exec.vu.metrics.metadata;
  md.ls_sent = String(tally.sent);
  // a stream an error ended while it waited for its next message: that open gap is a gap too
  if (kind !== 'ok' && tally.messages > 0) md.ls_open_gap = String(now - tally.last);
  total.add(now - tally.started, { ls_result: kind, status: String(status), name: tally.name, ls_stream: '1' });
  delete md.ls_sent;
  delete md.ls_open_gap;
  requests.add(1);
  errorCount.add(kind === 'ok' ? 0 : 1);
  errors.add(kind !== 'ok');
}

function utf8Length(data) {
  return typeof data === 'string' ? utf8Bytes(data) : data && typeof data.byteLength === 'number' ? data.byteLength : 0;
}

function wsMatches(m, text) {
  if (m.includes !== null && text.indexOf(m.includes) < 0) return false;
  if (m.keys === null) return true;
  let v;
  try { v = JSON.parse(text); } catch (e) { return false; }
  v = valueAt(v, m.keys);
  if (v === null || v === undefined) return false;
  return m.equals === null || (typeof v === 'string' ? v : JSON.stringify(v)) === m.equals;
}

// k6/websockets says why a session failed only in words (Go's)
function wsErrorKind(text) {
  const s = String(text);
  if (/bad handshake/i.test(s)) return 'http';
  // the peer dropped the session without a close frame (close 1006): cut short, as natively
  if (/close \d+|abnormal closure/i.test(s)) return 'stream';
  if (/connection refused/i.test(s)) return 'refused';
  if (/reset|broken pipe|EOF/i.test(s)) return 'reset';
  if (/timeout|deadline/i.test(s)) return 'timeout';
  return 'other';
}

// One WebSocket session: upgrade, the script's steps, then receive until holdMs after the upgrade.
function runWs(p, t, headers, path, after) {
  const s = t.stream;
  const tally = streamTally(t);
  let ended = false;
  let stepAt = -1;
  let waiting = null;
  let holding = false;
  let status = 0;
  let openedAt = NaN;
  let stepTimer = null;
  let gapTimer = null;
  let keepAlive = null;
  let pongDue = null;
  const ws = new WebSocket((OVER_TLS ? 'wss://' : 'ws://') + HOST_PORT + path, null, { headers: headers, tags: { name: t.name } });
  ws.binaryType = 'arraybuffer';
  // the phase's deadline: a stream is one request, failed as a timeout at timeoutMs from its send
  const phaseTimer = setTimeout(() => end('timeout'), p.timeoutMs);

  function end(kind) {
    if (ended) return;
    ended = true;
    for (const tm of [phaseTimer, stepTimer, gapTimer, pongDue]) if (tm !== null) clearTimeout(tm);
    if (keepAlive !== null) clearInterval(keepAlive);
    streamEnded(tally, kind, status);
    if (ws.readyState === 0 || ws.readyState === 1) ws.close();
    after();
  }
  function deadline(ms) {
    if (stepTimer !== null) clearTimeout(stepTimer);
    stepTimer = setTimeout(() => end('idle'), ms);
  }
  function armGap() {
    if (gapTimer !== null) clearTimeout(gapTimer);
    gapTimer = setTimeout(() => end('idle'), s.idleTimeoutMs);
  }
  function next() {
    stepAt++;
    const step = s.script[stepAt];
    if (step === undefined) return hold();
    if (step.ping) {
      waiting = { match: null, since: clock(), pong: true };
      ws.ping();
      return deadline(step.timeoutMs);
    }
    if (step.send !== null) { ws.send(step.send); tally.sent++; }
    if (step.expect === null) return next();
    waiting = { match: step.expect, since: clock(), pong: false };
    deadline(step.timeoutMs);
  }
  function hold() {
    holding = true;
    if (stepTimer !== null) { clearTimeout(stepTimer); stepTimer = null; }
    const left = openedAt + s.holdMs - clock();
    if (left <= 0) return end('ok');
    stepTimer = setTimeout(() => end('ok'), left);
    if (s.idleTimeoutMs !== null) armGap();
    // one keep-alive ping at a time, its pong due within replyTimeoutMs
    if (s.pingEveryMs !== null) keepAlive = setInterval(() => {
      if (pongDue !== null) return;
      ws.ping();
      pongDue = setTimeout(() => end('idle'), s.replyTimeoutMs);
    }, s.pingEveryMs);
  }

  // the upgrade's own wait: TCP, TLS and the 101 together
  deadline(s.replyTimeoutMs);
  ws.onopen = () => {
    if (ended) return;
    status = 101;
    openedAt = clock();
    if (stepTimer !== null) { clearTimeout(stepTimer); stepTimer = null; }
    next();
  };
  ws.onmessage = (e) => {
    if (ended) return;
    const bytes = utf8Length(e.data);
    // k6 has read the frame whole: its size is judged after (docs/scale-out.md)
    if (bytes > s.maxMessageBytes) return end('protocol');
    if (tally.messages + 1 > s.maxMessages) return end('protocol');
    const matched = waiting !== null && waiting.match !== null && typeof e.data === 'string' && wsMatches(waiting.match, e.data);
    messageIn(tally, bytes, matched ? clock() - waiting.since : NaN);
    if (holding && s.idleTimeoutMs !== null) armGap();
    if (!matched) return;
    waiting = null;
    next();
  };
  ws.onpong = () => {
    if (ended) return;
    if (holding && pongDue !== null) { clearTimeout(pongDue); pongDue = null; }
    if (waiting === null || !waiting.pong) return;
    waiting = null;
    next();
  };
  ws.onerror = (e) => end(wsErrorKind(e && e.error));
  // the server closing it before the script and the hold ended: cut short
  ws.onclose = () => end('stream');
}

// gRPC's status codes as the native kinds (engine/driver/transport/grpc-errors.ts)
function grpcKind(code, details) {
  if (code === 4) return 'timeout';
  if (code === 14) return /ECONNREFUSED|connection refused|No connection established/i.test(String(details)) ? 'refused' : 'reset';
  if (code === 8 && /larger than max/i.test(String(details))) return 'protocol';
  return 'grpc';
}

function grpcClient(p, s) {
  const c = GRPC_CLIENTS.get(grpcKey(s));
  if (!c.connected) {
    c.client.connect(HOST_PORT, { plaintext: !OVER_TLS, timeout: String(p.timeoutMs) + 'ms', maxReceiveSize: s.maxMessageBytes });
    c.connected = true;
  }
  return c.client;
}

// One gRPC call: unary (k6 waits for it) or a server stream (its messages as they come)
function runGrpc(p, t, metadata, body, after) {
  const s = t.stream;
  const tally = streamTally(t);
  let message;
  try {
    message = JSON.parse(body === null ? '{}' : body);
  } catch (e) {
    streamEnded(tally, 'other', 0);
    return after();
  }
  let client;
  try {
    client = grpcClient(p, s);
  } catch (e) {
    streamEnded(tally, /refused/i.test(String(e)) ? 'refused' : /deadline|timeout/i.test(String(e)) ? 'timeout' : 'other', 0);
    return after();
  }
  const params = { metadata: metadata, timeout: String(p.timeoutMs) + 'ms', tags: { name: t.name } };
  if (!s.streaming) {
    let res;
    try {
      res = client.invoke(s.method, message, params);
    } catch (e) {
      streamEnded(tally, 'other', 0);
      return after();
    }
    if (res.status === grpc.StatusOK) messageIn(tally, 0, NaN);
    streamEnded(tally, res.status === grpc.StatusOK ? 'ok' : grpcKind(res.status, res.error && res.error.message), res.status === grpc.StatusUnavailable ? 0 : 200);
    return after();
  }
  // durationMs: the call's own deadline, its end a clean one
  const holding = s.holdMs !== null && s.holdMs < p.timeoutMs;
  if (holding) params.timeout = String(s.holdMs) + 'ms';
  let ended = false;
  let enough = false;
  const stream = new grpc.Stream(client, s.method, params);
  function end(kind, status) {
    if (ended) return;
    ended = true;
    streamEnded(tally, kind, status);
    after();
  }
  stream.on('data', () => {
    if (ended || enough) return;
    messageIn(tally, 0, NaN);
    if (s.messages !== null && tally.messages >= s.messages) { enough = true; end('ok', 200); }
  });
  stream.on('error', (e) => {
    const code = e && typeof e.code === 'number' ? e.code : 2;
    end(code === 4 && holding ? 'ok' : grpcKind(code, e && (e.details || e.message)), code === 14 ? 0 : 200);
  });
  stream.on('end', () => end('ok', 200));
  stream.write(message);
  stream.end();
}

// A stream template's request: its parts filled as any request's, then its protocol's run; the
// iteration lasts until the stream ends (k6 waits for its timers and sockets), then thinks.
function runStream(p, t, inputs) {
  const headers = {};
  for (const h of t.headers) Object.defineProperty(headers, h[0], { value: fill(h[1], inputs), enumerable: true, writable: true, configurable: true });
  const thinkMs = t.thinkMs !== null ? t.thinkMs : p.thinkMs;
  const after = () => { if (thinkMs > 0) setTimeout(() => undefined, thinkMs); };
  if (t.stream.protocol === 'ws') return runWs(p, t, headers, fill(t.path, inputs), after);
  return runGrpc(p, t, headers, t.body === null ? null : fill(t.body, inputs), after);
}
`;
