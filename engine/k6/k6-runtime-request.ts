// The part of the k6 runtime that builds a request and judges its response, as the native driver
// does: placeholders filled and escaped where they land (engine/driver/requests/request-compile.ts),
// data rows (engine/driver/requests/phase-inputs.ts), expect's checks (contract/check-eval.ts), a
// flow step's extract (engine/driver/requests/flow-users.ts). It runs inside k6 (goja), so it is
// text; every string it compares or sends comes from PLAN (data), never from code.
//
// Rows: one request per k6 iteration, so exec.scenario.iterationInTest is the request's number in
// its phase, unique across k6 instances run with execution segments: sequential takes row i mod n,
// unique row i once (past the end nothing is sent), random a row at random. A request that reads no
// data still has its number, so a unique file's rows past a flow's non-data steps stay unread.

export const K6_RUNTIME_REQUEST = String.raw`
const DATA_DIR = (function () {
  const d = __ENV.LOADSCOPE_DATA_DIR ? String(__ENV.LOADSCOPE_DATA_DIR) : PLAN.dataDir;
  return d === '' || d.charAt(d.length - 1) === '/' ? d : d + '/';
})();
// each data file once per k6 process (SharedArray), whatever the VUs
const DATA = new Map();
for (const p of PLAN.phases) {
  if (p.data === null || DATA.has(p.data.file)) continue;
  const file = p.data.file;
  DATA.set(file, new SharedArray('loadscope ' + file, function () { return JSON.parse(open(DATA_DIR + file)).rows; }));
}

function rowFor(d) {
  const rows = DATA.get(d.file);
  const n = rows.length;
  if (n === 0) return null;
  const i = exec.scenario.iterationInTest;
  if (d.order === 'random') return rows[Math.floor(Math.random() * n)];
  if (d.order === 'sequential') return rows[i % n];
  return i < n ? rows[i] : null;
}

const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/g;
const JSON_LITERAL = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$/;

// a lone surrogate has no UTF-8: sent as U+FFFD, as natively
function wellFormed(v) {
  let out = '';
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < v.length) {
      const d = v.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) { out += v.charAt(i) + v.charAt(i + 1); i++; continue; }
    }
    out += c >= 0xd800 && c <= 0xdfff ? '\ufffd' : v.charAt(i);
  }
  return out;
}

// a data or vars value is data where it lands: a path segment, a header value, a JSON string or value
function escapeFor(at, v) {
  if (at === 'path') return encodeURIComponent(wellFormed(v));
  if (at === 'header') return v.replace(CONTROL, ' ');
  if (at === 'jsonString') return JSON.stringify(v).slice(1, -1);
  if (at === 'jsonValue') return JSON_LITERAL.test(v) ? v : JSON.stringify(v);
  return v;
}

function uuid() {
  const hex = '0123456789abcdef';
  let s = '';
  for (let i = 0; i < 36; i++) {
    if (i === 8 || i === 13 || i === 18 || i === 23) s += '-';
    else if (i === 14) s += '4';
    else s += hex.charAt(i === 19 ? (Math.floor(Math.random() * 4) | 8) : Math.floor(Math.random() * 16));
  }
  return s;
}

function slotValue(s, c) {
  switch (s.p) {
    case 'counter': return String(c.counter);
    case 'randomInt': return String(s.min + Math.floor(Math.random() * (s.max - s.min + 1)));
    case 'uuid': return uuid();
    case 'now': return String(c.now);
    case 'isoTime': return new Date(c.now).toISOString();
    case 'user': return String(c.user);
    case 'data': return escapeFor(s.at, c.row === null || s.column < 0 || s.column >= c.row.length ? '' : String(c.row[s.column]));
    default: {
      const v = c.vars === null ? undefined : c.vars.get(s.name);
      return escapeFor(s.at, v === undefined ? '' : v);
    }
  }
}

function fill(parts, c) {
  if (parts.length === 1 && typeof parts[0] === 'string') return parts[0];
  let out = '';
  for (const part of parts) out += typeof part === 'string' ? part : slotValue(part, c);
  return out;
}

// patterns were judged at validation (contract/regex-shape.ts); compiled once per VU
const PATTERNS = new Map();
function pattern(text) {
  let re = PATTERNS.get(text);
  if (re === undefined) { re = new RegExp(text); PATTERNS.set(text, re); }
  return re;
}

// k6's header names are canonical (X-Api-Key); a check or extract names one in lower case
function headerOf(res, name) {
  for (const k of Object.keys(res.headers)) if (k.toLowerCase() === name) return String(res.headers[k]);
  return null;
}

function utf8Bytes(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) { n += 4; i++; }
    else n += 3;
  }
  return n;
}

function valueAt(v, keys) {
  for (const k of keys) {
    if (typeof v !== 'object' || v === null) return undefined;
    if (typeof k === 'number' ? !Array.isArray(v) : Array.isArray(v) || !Object.prototype.hasOwnProperty.call(v, k)) return undefined;
    v = v[k];
  }
  return v;
}

function jsonTypeOf(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function jsonEquals(a, e) {
  if (e === null || typeof e !== 'object') return a === e;
  if (a === null || typeof a !== 'object' || Array.isArray(a) !== Array.isArray(e)) return false;
  const keys = Object.keys(e);
  if (Object.keys(a).length !== keys.length) return false;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(a, k) && jsonEquals(a[k], e[k]));
}

// the response as checks and extracts read it: its text (when asked for), bytes, JSON parsed once
function responseOf(res, t) {
  const body = t.readsBody && typeof res.body === 'string' ? res.body : '';
  const r = { body: body, bytes: t.readsBody ? utf8Bytes(body) : 0, parsed: false, ok: false, json: undefined };
  r.jsonValue = function () {
    if (!r.parsed) { r.parsed = true; try { r.json = JSON.parse(r.body); r.ok = true; } catch (e) { r.ok = false; } }
    return r.ok;
  };
  return r;
}

function passes(ch, res, r) {
  switch (ch.kind) {
    case 'status':
      return ch.ranges.some((range) => res.status >= range[0] && res.status <= range[1]);
    case 'size':
      return r.bytes <= ch.atMost;
    case 'header': {
      const v = headerOf(res, ch.header);
      if (v === null || v.length > PLAN.bounds.checkHeaderChars) return false;
      return ch.op === 'equals' ? v === ch.value : pattern(ch.value).test(v);
    }
    case 'body':
      // expect.bodyIncludes is searched in the whole body, as the native driver searches it as it streams
      if (ch.stream) return r.body.indexOf(ch.value) >= 0;
      if (r.bytes > PLAN.bounds.checkBodyBytes) return false;
      return ch.op === 'includes' ? r.body.indexOf(ch.value) >= 0 : pattern(ch.value).test(r.body);
    default: {
      if (r.bytes > PLAN.bounds.checkBodyBytes || !r.jsonValue()) return false;
      const v = valueAt(r.json, ch.keys);
      if (ch.op === 'exists') return v !== undefined;
      if (ch.op === 'absent') return v === undefined;
      if (v === undefined) return false;
      return ch.op === 'type' ? jsonTypeOf(v) === ch.value : jsonEquals(v, ch.value);
    }
  }
}

// contract/check-eval.ts's failure(): 'http' for a failed status at 400 and above (or any such
// status without a status check), else the first failed check's own kind
function checkFailure(t, status, passed) {
  if (status >= 400 && (!t.hasStatus || t.checks.some((ch, i) => ch.kind === 'status' && !passed[i]))) return 'http';
  let kind = 'ok';
  for (let i = 0; i < t.checks.length; i++) {
    if (passed[i]) continue;
    if (t.checks[i].failsAs === 'body') return 'body';
    kind = 'check';
  }
  return kind;
}

// a step's extract: the value, or null (an 'extract' error of the step)
function extractValue(x, res, r) {
  if (x.kind === 'header') {
    const h = headerOf(res, x.name);
    if (h === null || x.pattern === null) return h;
    const m = pattern(x.pattern).exec(h);
    return m === null || m[1] === undefined ? null : m[1];
  }
  if (r.bytes > PLAN.bounds.extractBodyBytes) return null;
  if (x.kind === 'regex') {
    const m = pattern(x.pattern).exec(r.body);
    return m === null || m[1] === undefined ? null : m[1];
  }
  if (!r.jsonValue()) return null;
  const v = valueAt(r.json, x.keys);
  if (v === null || v === undefined) return null;
  return typeof v === 'string' ? v : JSON.stringify(v);
}
`;
