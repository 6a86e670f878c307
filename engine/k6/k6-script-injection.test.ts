import * as acorn from 'acorn';
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { Scenario, type ScenarioInput } from '../../contract/scenario.js';
import { createScenario } from '../scenario/test-support/factories.js';
import { operatorYaml, testRunObject } from './k6-operator.js';
import { k6Plan, k6Script, type K6ScriptOptions } from './k6-script.js';
import { k6Thresholds } from './k6-thresholds.js';
import { wellFormedText } from './test-support/well-formed.js';
import { k6DataFiles } from './k6-data.js';
import type { PlanParts } from './k6-templates.js';
import { parseTemplate } from '../../contract/variables.js';
import { basename, dirname } from 'node:path';
import type { PlanStream } from './k6-stream-plan.js';
import { WS_UPGRADE_OWNED_HEADERS } from '../../contract/stream-names.js';

// A scenario's strings are data: whatever they hold, the generated script is the same program (the
// same tokens once string literals are masked, every comment in the header), its PLAN is a pure data
// literal that evaluates back to the exact strings, and the operator's YAML holds the script as data.
// acorn is a real ES parser (here through eslint's espree): it reads U+2028, `*/` and `<!--` as k6's
// goja and a browser would. Stream templates too (issue 41): a WebSocket step's sends and matches, a
// gRPC call's method, .proto path and message stay data.

interface PlanTemplateText {
  method: string;
  path: PlanParts;
  body: PlanParts;
  headers: [string, PlanParts][];
  checks: { name: string; value?: unknown; header?: string }[];
  extract: unknown;
  stream: PlanStream | null;
}

/** The fixed text of a field's parts (its slots left out). */
const textOf = (parts: PlanParts): string => parts.filter((p) => typeof p === 'string').join('');
/** The fixed text the scenario's own parser finds in a field (text that is no template is sent as it is). */
function fixedPart(text: string): string {
  const parsed = parseTemplate(text);
  return parsed.ok ? parsed.parts.filter((p) => typeof p === 'string').join('') : text;
}

/** Every string field of a scenario that reaches the script. */
interface Strings {
  scenarioName: string;
  label: string;
  target: string;
  phaseNames: [string, string, string];
  method: string;
  path: string;
  headerName: string;
  headerValue: string;
  body: string;
  bodyIncludes: string;
  /** whitespace inside a threshold check (the regex allows any \s, U+2028 included) */
  checkSpace: string;
  clusterTarget: string;
  /** a data file's name in the runners' folder, and its text (the operator's ConfigMap) */
  dataName: string;
  dataText: string;
  /** a check's own name, a header check's name and value, a json check's value */
  checkName: string;
  checkHeader: string;
  checkValue: string;
  jsonValue: string;
  /** a flow step's extract: a header's name and a pattern */
  extractHeader: string;
  extractPattern: string;
  /** a value in the data file */
  dataCell: string;
  /** a WebSocket step's send, and its expect's includes and equals */
  wsSend: string;
  wsIncludes: string;
  wsEquals: string;
  /** a gRPC template's .proto */
  protoPath: string;
}

const PLACEHOLDER: Strings = {
  scenarioName: 'name',
  label: 'label',
  target: 'http://127.0.0.1:9',
  phaseNames: ['a', 'b', 'c'],
  method: 'GET',
  path: '/p',
  headerName: 'h',
  headerValue: 'v',
  body: 'b',
  bodyIncludes: 'i',
  checkSpace: ' ',
  clusterTarget: 'http://x:1',
  dataName: 'users.csv',
  dataText: 'user\nann\n',
  checkName: 'n',
  checkHeader: 'x',
  checkValue: 'v',
  jsonValue: 'j',
  extractHeader: 'e',
  extractPattern: '(p)',
  dataCell: 'd',
  wsSend: 's',
  wsIncludes: 'i',
  wsEquals: 'e',
  protoPath: '/p/x.proto',
};

// What breaks out of a comment, a string, a template or a page, as fragments to mix with anything.
const FRAGMENTS = ['\n', '\r', '\r\n', '\u2028', '\u2029', '*/', '/*', '//', '</script>', '<!--', '-->', '"', "'", '`', '${', '}', '\\', '\\u2028', ')', ';', '\u202e', '\u2066', '\ud800', '\u0000', '\u001b[2J', 'throw 1;'];
const hostile = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 3 })), { maxLength: 8 }).map((parts) => parts.join('')),
);
const space = fc.array(fc.constantFrom(' ', '\t', '\n', '\r', '\u2028', '\u2029', '\u00a0', '\ufeff'), { minLength: 1, maxLength: 3 }).map((s) => s.join(''));

const strings: fc.Arbitrary<Strings> = fc.record({
  scenarioName: hostile,
  label: hostile,
  target: hostile,
  phaseNames: fc.tuple(hostile, hostile, hostile),
  method: hostile,
  path: hostile,
  headerName: hostile,
  headerValue: hostile,
  body: hostile,
  bodyIncludes: hostile,
  checkSpace: space,
  clusterTarget: hostile,
  dataName: hostile,
  dataText: hostile,
  checkName: hostile,
  checkHeader: hostile,
  checkValue: hostile,
  jsonValue: hostile,
  extractHeader: hostile,
  extractPattern: hostile,
  dataCell: hostile,
  wsSend: hostile,
  wsIncludes: hostile,
  wsEquals: hostile,
  protoPath: hostile,
});

/** A scenario with every kind of phase and threshold note, then the strings put in (past validation: the generator must hold on its own). */
function scenarioWith(s: Strings): { scenario: Scenario; opts: K6ScriptOptions } {
  const [a, b, c] = s.phaseNames;
  const requests = [{ method: 'GET' as const, path: '/x', headers: { h: 'v' }, body: 'b', expect: { status: 200, bodyIncludes: 'i' } }];
  const input: ScenarioInput = createScenario({
    phases: [
      { name: 'a', executor: 'sequential', count: 2, data: 'rows', requests },
      { name: 'b', executor: 'rate', rate: 5, durationMs: 1000, arrivals: 'poisson', data: 'rows', requests },
      { name: 'c', executor: 'closed', users: 1, durationMs: 500, keepAlive: false, flow: true, data: 'rows', requests },
      // streams (issue 41): a WebSocket session's script and a gRPC call's .proto and method
      { name: 'd', executor: 'closed', users: 1, count: 1, requests: [{ path: '/ws', headers: { h: 'v' }, stream: { protocol: 'ws', script: [{ send: 's', expect: { includes: 'i', path: 'a.b', equals: 'e' } }, { ping: true }] } }] },
      { name: 'e', executor: 'closed', users: 1, count: 1, requests: [{ path: '/a.B/C', headers: { h: 'v' }, body: '{}', stream: { protocol: 'grpc', proto: '/p/x.proto' } }] },
    ],
    data: [{ name: 'rows', file: 'rows.csv', format: 'csv', order: 'unique' }],
    thresholds: [
      { check: 'durationMs < 9', phase: 'a' },
      { check: 'throughput > 1', phase: 'b' },
      { check: 'errors.rate < 0.5', phase: 'b' },
      { check: 'throughput > 1', phase: 'a' },
      { check: 'total.p99 < 9', phase: 'c', server: 'single' },
    ],
  });
  const scenario = Scenario.parse(input);
  scenario.name = s.scenarioName;
  scenario.phases.forEach((p, i) => {
    if (i >= 3) {
      for (const r of p.requests) {
        r.path = s.path;
        r.headers = { [s.headerName]: s.headerValue, 'x-row': '{{data.c}}' };
        if (r.stream?.protocol === 'ws') r.stream.script = [{ send: s.wsSend, expect: { includes: s.wsIncludes, path: 'a.b', equals: s.wsEquals } }, { ping: true }];
        if (r.stream?.protocol === 'grpc') {
          r.stream.proto = s.protoPath;
          r.body = s.body;
        }
      }
      return;
    }
    p.name = [a, b, c][i];
    for (const r of p.requests) {
      // the schema allows a few methods; the generator must not rely on it
      (r as { method: string }).method = s.method;
      r.path = s.path;
      // a placeholder beside each hostile string: the runtime fills the slot, the text stays data
      r.headers = { [s.headerName]: s.headerValue, 'x-row': '{{data.c}}' };
      r.body = s.body;
      r.expect = { status: 200, bodyIncludes: s.bodyIncludes, checks: [{ header: s.checkHeader, equals: s.checkValue, name: s.checkName }, { json: 'a[0].b', equals: s.jsonValue }] };
      r.extract = { var: 'v', from: 'header', name: s.extractHeader, pattern: s.extractPattern };
    }
  });
  const names = [a, b, c];
  scenario.thresholds = scenario.thresholds!.map((t, i) => ({
    ...t,
    check: `${s.checkSpace}${t.check.replace(/ /g, s.checkSpace)}${s.checkSpace}`,
    phase: names[[0, 1, 1, 0, 2][i]!],
    server: t.server === undefined ? undefined : s.label,
  }));
  const { thresholds, notes } = k6Thresholds(scenario, [s.label, 'single']);
  const data = [{ name: 'rows', order: 'unique' as const, columns: ['c'], rows: [[s.dataCell]] }];
  return { scenario, opts: { target: s.target, cell: 0, server: s.label, thresholds, thresholdNotes: notes, data } };
}

interface Parsed {
  /** tokens outside PLAN's initializer, string literals masked */
  tokens: string[];
  comments: acorn.Comment[];
  /** where the first token starts: everything before it is the header */
  firstToken: number;
  plan: unknown;
}

/** The value of a pure data literal; anything else (a call, a name, a template) throws. */
function evaluate(node: acorn.Node): unknown {
  const n = node as acorn.Expression;
  switch (n.type) {
    case 'Literal':
      if (n.regex !== undefined || n.bigint !== undefined) throw new Error(`not data: ${n.raw}`);
      return n.value;
    case 'UnaryExpression':
      if (n.operator !== '-' || n.argument.type !== 'Literal' || typeof n.argument.value !== 'number') throw new Error('not data: a unary expression');
      return -n.argument.value;
    case 'ArrayExpression':
      return n.elements.map((e) => (e === null || e.type === 'SpreadElement' ? (() => { throw new Error('not data: a hole or a spread'); })() : evaluate(e)));
    case 'ObjectExpression': {
      const out: Record<string, unknown> = {};
      for (const p of n.properties) {
        if (p.type !== 'Property' || p.computed || p.kind !== 'init' || p.method || p.shorthand || p.key.type !== 'Literal' || typeof p.key.value !== 'string') throw new Error('not data: a property that is not "key": value');
        // defineProperty, as JSON.parse does: a "__proto__" key is an own property
        Object.defineProperty(out, p.key.value, { value: evaluate(p.value), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    default:
      throw new Error(`not data: ${n.type}`);
  }
}

function parse(script: string): Parsed {
  const comments: acorn.Comment[] = [];
  const options: acorn.Options = { ecmaVersion: 'latest', sourceType: 'module', onComment: comments };
  const program = acorn.parse(script, options);
  const decl = program.body.find((s): s is acorn.VariableDeclaration => s.type === 'VariableDeclaration' && s.declarations[0]?.id.type === 'Identifier' && s.declarations[0].id.name === 'PLAN');
  const init = decl?.declarations[0]?.init;
  if (!init) throw new Error('no PLAN');
  const tokens: string[] = [];
  let firstToken = -1;
  for (const t of acorn.tokenizer(script, { ecmaVersion: 'latest', sourceType: 'module' })) {
    if (firstToken < 0) firstToken = t.start;
    if (t.start >= init.start && t.end <= init.end) continue;
    tokens.push(t.type === acorn.tokTypes.string ? 'string' : `${t.type.label}:${String((t as acorn.Token & { value?: unknown }).value ?? '')}`);
  }
  return { tokens, comments, firstToken, plan: evaluate(init) };
}

const WS_OWNED = WS_UPGRADE_OWNED_HEADERS;

const reference = (() => {
  const { scenario, opts } = scenarioWith(PLACEHOLDER);
  return parse(k6Script(scenario, opts));
})();

/** The script is safe text wherever it lands: nothing that ends a comment, a line to old JS, or a page. */
const UNSAFE_ANYWHERE = /[\u2028\u2029\u202a-\u202e\u2066-\u2069]|\*\/|<\/script|<!--|-->/i;

function checkScript(s: Strings): void {
  const { scenario, opts } = scenarioWith(s);
  const script = k6Script(scenario, opts);
  const got = parse(script);
  // the same program: the runtime's tokens, nothing more, nothing less
  expect(got.tokens).toEqual(reference.tokens);
  // the header is `//` lines only, one per line (how many depends on which phases a threshold names);
  // the runtime's comments are its own
  const header = got.comments.filter((c) => c.end <= got.firstToken);
  expect(header.every((c) => c.type === 'Line')).toBe(true);
  expect(header).toHaveLength(script.slice(0, got.firstToken).split('\n').length - 1);
  const runtimeComments = (p: Parsed) => p.comments.filter((c) => c.end > p.firstToken).map((c) => c.value);
  expect(runtimeComments(got)).toEqual(runtimeComments(reference));
  expect(script).not.toMatch(UNSAFE_ANYWHERE);
  // PLAN is the plan, to the exact string (JS semantics: U+2028, lone surrogates, `__proto__`)
  expect(got.plan).toEqual(JSON.parse(JSON.stringify(k6Plan(scenario, opts))));
  const plan = got.plan as { scenario: string; server: string; target: string; phases: { name: string; templates: PlanTemplateText[] }[] };
  expect([plan.scenario, plan.server, plan.target]).toEqual([s.scenarioName, s.label, s.target]);
  expect(plan.phases.map((p) => p.name)).toEqual([...s.phaseNames, 'd', 'e']);
  // a stream's strings come back exact: a WebSocket step's texts, a gRPC call's method and .proto
  const [ws, grpc] = plan.phases.slice(3).map((p) => p.templates[0]!);
  expect(ws!.stream).toMatchObject({ protocol: 'ws', script: [{ send: s.wsSend, expect: { includes: s.wsIncludes, keys: ['a', 'b'], equals: s.wsEquals } }, { ping: true, send: null }] });
  expect(textOf(ws!.headers.find(([name]) => name === s.headerName)?.[1] ?? [])).toBe(WS_OWNED.has(s.headerName.toLowerCase()) ? '' : fixedPart(s.headerValue));
  expect(grpc!.stream).toMatchObject({ protocol: 'grpc', method: s.path.slice(1), protoDir: dirname(s.protoPath), protoFile: basename(s.protoPath) });
  expect(textOf(grpc!.body)).toBe(fixedPart(s.body));
  for (const p of plan.phases.slice(0, 3)) {
    const t = p.templates[0]!;
    const header = t.headers.find(([name]) => name === s.headerName)?.[1];
    expect([t.method, textOf(t.path), textOf(t.body), textOf(header!)]).toEqual([s.method, fixedPart(s.path), fixedPart(s.body), fixedPart(s.headerValue)]);
    expect(t.headers.find(([name]) => name === 'x-row')?.[1]).toEqual([{ p: 'data', column: 0, at: 'header' }]);
    const [status, body, own, json] = t.checks;
    expect([status!.name, body!.value, own!.name, own!.header, own!.value, json!.value]).toEqual(['status 200', s.bodyIncludes, s.checkName.length <= 200 ? s.checkName : own!.name, s.checkHeader.toLowerCase(), s.checkValue, s.jsonValue]);
    expect(t.extract).toEqual({ var: 'v', kind: 'header', name: s.extractHeader.toLowerCase(), pattern: s.extractPattern });
  }
  // the data file is JSON k6 parses as data, giving back the exact value
  const [file] = k6DataFiles(scenario, opts.data!);
  expect((JSON.parse(file!.text) as { rows: string[][] }).rows).toEqual([[s.dataCell]]);
  // the operator's YAML, as YAML 1.1 (kubectl) and 1.2 read it: the data file's bytes, the script, the
  // cluster target and the file's name come back exactly (a lone surrogate, which no YAML holds, as U+FFFD)
  const data = Buffer.from(s.dataText, 'utf8');
  const o = { parallelism: 2, name: 'loadscope-x', target: s.clusterTarget, dataFiles: [{ index: 0, name: s.dataName, bytes: data }] };
  const yaml = operatorYaml(o, script);
  for (const version of ['1.1', '1.2'] as const) {
    const docs = parseAllDocuments(yaml, { version }).map((d) => d.toJS() as Record<string, Record<string, string>>);
    expect(docs).toHaveLength(3);
    expect(Buffer.from(docs[0]!.binaryData!['data-0']!, 'base64')).toEqual(data);
    expect(docs[1]!.data!['script.js']).toBe(script);
    expect(docs[2]).toEqual(JSON.parse(JSON.stringify(testRunObject(o)), (_, v: unknown) => (typeof v === 'string' ? wellFormedText(v) : v)));
  }
}

describe('scenario strings in the generated k6 script', () => {
  it('are data in every field: the same program as with placeholders, PLAN evaluating back to the exact strings, the YAML holding the script', () => {
    fc.assert(fc.property(strings, checkScript), { numRuns: 300, seed: 23 });
  });

  it('a label with a newline and code after it does not run that code (the script is the same program)', () => {
    const label = 'single\nthrow new Error("injected by a label");\n// ';
    const { scenario, opts } = scenarioWith({ ...PLACEHOLDER, label, phaseNames: ['a\n});throw 1;//', 'b */ throw 2; /*', 'c'] });
    const script = k6Script(scenario, opts);
    const got = parse(script);
    expect(got.tokens).toEqual(reference.tokens);
    expect(got.tokens).not.toContain('throw:throw');
    expect(script).toContain('server "single\\nthrow new Error(\\"injected by a label\\");\\n// ")');
  });
});
