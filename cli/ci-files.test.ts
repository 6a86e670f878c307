import { spawnSync } from 'node:child_process';
import { DOMParser } from '@xmldom/xmldom';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { parseRegressionRule, type RegressionResult } from '../contract/regression-rules.js';
import type { ThresholdResult } from '../contract/thresholds.js';
import { ciJunit } from './format/ci-junit.js';
import { ciMarkdown, type CiSummary } from './format/ci-markdown.js';
import { formatRegression } from './format/regression.js';
import { junitSchemaErrors } from './test-support/junit-schema.js';
import { skipUnless } from '../engine/test-support/skip.js';

// The files CI posts (--markdown, --junit) treat every user string as data: scenario, server, phase
// and endpoint names and the rules' and checks' own text. The Markdown is parsed as GitHub-flavoured
// Markdown (markdown-it's GFM tables): each hostile string must come back as the literal text of its
// one cell, never as markup, a link, HTML, a mention or another cell. A bare URL, `www.`, domain or
// address in a name is no link either, rendered by markdown-it with linkify on and by GitHub's own
// parser, cmark-gfm with its autolink extension (where installed). The JUnit file is parsed back
// as XML and validated against Apache Ant's JUnit schema (cli/test-support/junit-ant.xsd).

const HOSTILE = {
  scenario: 'shop | *bold* _em_ `code` [link](http://x.invalid) <img src=x onerror=alert(1)> @octo-org/team # h',
  server: 'edge"srv\' & <b>|</b>',
  phase: 'steady ]]> --> <!-- \\| ~~gone~~',
  endpoint: 'GET /a?b=1&c=<d>|e',
  check: 'total.p99 < 250',
};
// what an XML document can carry: a C0 control and a lone surrogate cannot be, and become U+FFFD
const CONTROL = 'x\u0001y\ud800z';

function summary(): CiSummary {
  const rule = parseRegressionRule(`total.p99 > +10% phase="${HOSTILE.phase.replace(/\\/g, '\\\\')}" endpoint="${HOSTILE.endpoint}"`);
  const pass = parseRegressionRule('throughput < -5%');
  const regression: RegressionResult = {
    baselineRunIds: [1],
    nowRunIds: [2],
    failed: true,
    rules: [
      {
        rule,
        verdict: 'fail',
        why: '1 of 1 failed',
        checks: [{ server: HOSTILE.server, phase: HOSTILE.phase, endpoint: HOSTILE.endpoint, baseline: 10, now: 20, change: 1, interval: { low: 0.8, high: 1.2 }, noise: 'within runs', judgement: 'beyond', verdict: 'fail', why: `changed ${CONTROL}` }],
      },
      {
        rule: pass,
        verdict: 'pass',
        why: '1 passed',
        checks: [{ server: HOSTILE.server, phase: HOSTILE.phase, endpoint: null, baseline: 100, now: 99, change: -0.01, interval: { low: -0.05, high: 0.03 }, noise: 'within runs', judgement: 'within', verdict: 'pass', why: 'within' }],
      },
    ],
  };
  const threshold: ThresholdResult = { targetId: 1, cellIndex: 0, server: `${HOSTILE.server}${CONTROL}`, phaseIndex: 0, phase: HOSTILE.phase, request: HOSTILE.endpoint, check: HOSTILE.check, metric: 'total.p99', op: '<', limit: 250, measured: 300, passed: false };
  return { scenarioName: HOSTILE.scenario, runs: [{ id: 2, status: 'completed', quick: false }], thresholds: [threshold], regression };
}

/** A GFM table's rows as the text of each cell, with the token types each cell's inline content has. */
function tableCells(markdown: string): { text: string; types: string[] }[][] {
  const tokens = new MarkdownIt('commonmark').enable('table').parse(markdown, {});
  const rows: { text: string; types: string[] }[][] = [];
  let row: { text: string; types: string[] }[] | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === 'tr_open') row = [];
    else if (t.type === 'tr_close' && row) rows.push(row);
    else if ((t.type === 'td_open' || t.type === 'th_open') && row) {
      const inline = tokens[i + 1]!;
      const children = inline.children ?? [];
      row.push({ text: children.map((c) => c.content).join(''), types: [...new Set(children.map((c) => c.type))] });
    }
  }
  return rows;
}

describe('--markdown: user strings stay text', () => {
  it('every hostile name is the literal text of its own cell: no markup, link, HTML, mention or extra cell', () => {
    const md = ciMarkdown(summary());
    const rows = tableCells(md);
    const ruleRows = rows.filter((r) => r.length === 7);
    const thresholdRows = rows.filter((r) => r.length === 4);
    // header + 2 rule rows; header + 1 threshold row: a '|' inside a name did not make a cell
    expect(rows.map((r) => r.length)).toEqual([7, 7, 7, 4, 4]);
    const place = `${HOSTILE.server} / ${HOSTILE.phase} / ${HOSTILE.endpoint}`;
    expect(ruleRows[1]![1]).toEqual({ text: place, types: ['text'] });
    expect(ruleRows[1]![0]!.text).toBe(summary().regression!.rules[0]!.rule.text);
    expect(thresholdRows[1]![0]).toEqual({ text: HOSTILE.check, types: ['text'] });
    expect(thresholdRows[1]![1]!.types).toEqual(['text']);
    // a threshold checked on one endpoint names it after its phase, as text
    expect(thresholdRows[1]![1]!.text).toBe(`${HOSTILE.server}${CONTROL} / ${HOSTILE.phase} / ${HOSTILE.endpoint}`);
    for (const row of rows) for (const cell of row) expect(cell.types.filter((t) => t !== 'text' && t !== 'strong_open' && t !== 'strong_close')).toEqual([]);
    // the heading: the scenario name as text, '@' kept from mentioning (a zero-width space after it)
    const heading = new MarkdownIt('commonmark').parse(md, {}).find((t) => t.type === 'inline')!;
    expect(heading.children!.map((c) => c.type)).toEqual(['text']);
    expect(heading.content).not.toMatch(/<img/);
    expect(heading.children![0]!.content).toContain(HOSTILE.scenario.replace('@', '@\u200b'));
  });
});

/** Names a Markdown renderer would autolink as written: scheme URLs, www., fuzzy domains, addresses. */
const LINKABLE = [
  'see https://evil.example/x and www.evil.example',
  'go to evil.com/login, WWW.EVIL.COM or www.123.com',
  '//localhost/x and ftp://127.0.0.1:21/',
  'mailto:a@b.com, a@evil.com and xmpp:a@b.com/r',
  'x:HTTPS://EVIL.COM/a.b?c=d.e and evil.рф',
];

/** A run named `name`, its server and phase named after it, a threshold on it: every place a name goes. */
function namedSummary(name: string): CiSummary {
  const threshold: ThresholdResult = { targetId: 1, cellIndex: 0, server: name, phaseIndex: 0, phase: name, request: name, check: 'total.p99 < 250', metric: 'total.p99', op: '<', limit: 250, measured: 12.5, passed: true };
  return { scenarioName: name, runs: [{ id: 3, status: 'completed', quick: false }], thresholds: [threshold], regression: null };
}

/** cmark-gfm, the parser GitHub renders comments and job summaries with, or null where it is not installed. */
function cmarkGfm(markdown: string): string | null {
  const r = spawnSync('cmark-gfm', ['-e', 'autolink', '-e', 'table'], { input: markdown, encoding: 'utf8', timeout: 10_000 });
  return r.error !== undefined || r.status !== 0 ? null : r.stdout;
}
const hasCmarkGfm = cmarkGfm('x') !== null;

describe('--markdown: a URL in a name is no link', () => {
  it.each(LINKABLE)('markdown-it with linkify renders %j as its literal text, no link in the heading or a cell', (name) => {
    const md = ciMarkdown(namedSummary(name));
    const tokens = new MarkdownIt({ linkify: true }).enable('table').parse(md, {});
    const inline = tokens.filter((t) => t.type === 'inline');
    expect(inline.flatMap((t) => t.children ?? []).filter((c) => c.type === 'link_open')).toEqual([]);
    // the heading and the threshold's place read back as the name (its '@' followed by a zero-width space)
    const shown = name.replace(/@/g, '@\u200b');
    expect(inline[0]!.children!.map((c) => c.content).join('')).toBe(`✅ Loadscope: ${shown}`);
    expect(tableCells(md)[1]![1]!.text).toBe(`${shown} / ${shown} / ${shown}`);
    // figures stay as written
    expect(md).toContain('| 12.5 |');
  });

  it('GitHub\'s cmark-gfm with autolink renders every one with no <a>, the text intact', skipUnless(hasCmarkGfm, 'cmark-gfm is not installed (Debian: apt-get install cmark-gfm); markdown-it with linkify is checked above'), () => {
    for (const name of LINKABLE) {
      const html = cmarkGfm(ciMarkdown(namedSummary(name)))!;
      expect(html, name).not.toMatch(/<a\b/);
      expect(html, name).toContain(`Loadscope: ${name.replace(/&/g, '&amp;').replace(/@/g, '@\u200b')}</h3>`);
    }
  });
});

describe('--markdown: the verdict line', () => {
  it('says when there was nothing to judge, and when a run did not complete', () => {
    const none = ciMarkdown({ scenarioName: 'plain', runs: [{ id: 4, status: 'completed', quick: true }], thresholds: [], regression: null });
    expect(none).toBe('### ✅ Loadscope: plain (quick)\n\nRun #4: no thresholds or regression rules to judge.\n');
    const failed = ciMarkdown({ scenarioName: 'plain', runs: [{ id: 5, status: 'failed', quick: false }], thresholds: [], regression: null });
    expect(failed).toMatch(/^### ❌ Loadscope: plain\n\nRun #5 \(failed\): no thresholds or regression rules to judge; 1 did not complete\.\n$/);
  });
});

/** `total.p99 > +10%` failed on a phase split into endpoints, one run against one baseline run, or a group of three. */
function phaseRuleFailed(nowRunIds: number[]): CiSummary {
  const rule = parseRegressionRule('total.p99 > +10%');
  const movedMost = { endpoint: 'GET /slow', baseline: 10, now: 22, change: 1.2 };
  const why = 'changed +42.8 % (95 % interval +30.0 % .. +55.0 %): beyond the margin +10.0 % and the noise; moved most: GET /slow +120.0 % (10.00 ms → 22.00 ms)';
  const regression: RegressionResult = {
    baselineRunIds: [1],
    nowRunIds,
    failed: true,
    rules: [{ rule, verdict: 'fail', why: '1 of 1 failed', checks: [{ server: 'single', phase: 'steady', endpoint: null, baseline: 10, now: 14.28, change: 0.428, interval: { low: 0.3, high: 0.55 }, noise: 'within runs', judgement: 'beyond', verdict: 'fail', why, movedMost }] }],
  };
  return { scenarioName: 'shop', runs: nowRunIds.map((id) => ({ id, status: 'completed', quick: false })), thresholds: [], regression };
}

describe('--markdown and the terminal: a regression verdict says where and what it rests on', () => {
  it('one run against one: the failed phase rule with the endpoint that moved most, then that one run\'s noise judged it and how to confirm', () => {
    const md = ciMarkdown(phaseRuleFailed([2]));
    expect(md).toContain('Run #2 against the baseline (baseline: run 1, now: run 2): 1 of 1 regression rules failed.');
    // (':' and a '.' beside a letter as entities: no autolink, contract/markdown-text.ts)
    expect(md).toContain('❌ total&#46;p99 &gt; \\+10% at single / steady: changed \\+42.8 % \\(95 % interval \\+30.0 % .. \\+55.0 %\\)&#58; beyond the margin \\+10.0 % and the noise; moved most&#58; GET /slow \\+120.0 % \\(10.00 ms → 22.00 ms\\)');
    expect(md).toContain("> ⚠️ judged with one run's noise&#58; a single run against a single baseline run can fail once by chance \\(a cold start, a busy machine\\); confirm with --repeat 3");
    const terminal = formatRegression(phaseRuleFailed([2]).regression!);
    expect(terminal).toContain('moved most: GET /slow +120.0 %');
    expect(terminal.split('\n').at(-1)).toBe("Note: judged with one run's noise: a single run against a single baseline run can fail once by chance (a cold start, a busy machine); confirm with --repeat 3 (the spread between runs is then the noise), against a baseline pinned from a --repeat 3 run too.");
  });

  it('a repeated group judged: no one-run note in the Markdown or the terminal', () => {
    expect(ciMarkdown(phaseRuleFailed([2, 3, 4]))).not.toContain("one run's noise");
    expect(formatRegression(phaseRuleFailed([2, 3, 4]).regression!)).not.toContain("one run's noise");
  });
});

/** A rule whose one check's interval was too wide to judge (engine/compare/regression.ts): not judged, the rule passes with a warning. */
function tooVariable(): CiSummary {
  const rule = parseRegressionRule('total.p50 > +50%');
  const why = "too variable to judge: its 95 % interval spans x625 (over x10), so it cannot tell a change from none. Why so wide: drift; changed +0.0 %, not judged: passes with a warning";
  const regression: RegressionResult = {
    baselineRunIds: [1],
    nowRunIds: [2],
    failed: false,
    rules: [{ rule, verdict: 'pass', why: 'passed with a warning: 1 of 1 too variable to judge, none judged', checks: [{ server: 'single', phase: 'ramp', endpoint: null, baseline: 10, now: 10, change: 0, interval: { low: -0.96, high: 24 }, noise: 'within runs', judgement: 'too variable', verdict: 'unjudged', why }] }],
  };
  return { scenarioName: 'ramp', runs: [{ id: 2, status: 'completed', quick: false }], thresholds: [], regression };
}

describe('a rule too variable to judge', () => {
  it('--markdown says "too variable to judge" in its interval and verdict cells, never the absurd interval; the summary passes', () => {
    const md = ciMarkdown(tooVariable());
    const row = tableCells(md).filter((r) => r.length === 7)[1]!;
    expect(row[5]!.text).toBe('too variable to judge');
    expect(row[6]!.text).toBe('⚠️ too variable to judge: passes');
    expect(md).not.toContain('2400');
    expect(md).toMatch(/^### ✅/);
  });

  it('--junit: the rule passes, its warning in the suite\'s system-out, still valid against the schema', async () => {
    const xml = ciJunit(tooVariable(), new Date('2026-01-02T03:04:05.678Z'));
    expect(await junitSchemaErrors(xml)).toEqual([]);
    const doc = new DOMParser().parseFromString(xml, 'text/xml');
    expect(doc.getElementsByTagName('failure').length).toBe(0);
    const out = doc.getElementsByTagName('system-out')[0]!.textContent ?? '';
    expect(out).toContain('warning: total.p50 > +50%: passed with a warning: 1 of 1 too variable to judge');
    expect(out).toContain('single / ramp: too variable to judge');
  });

  it('the terminal names it too', () => {
    const out = formatRegression(tooVariable().regression!);
    expect(out).toContain('1 passed with a warning (too wide to judge)');
    expect(out).toContain('too variable to judge: pass, with a warning');
  });
});

describe('the terminal: user strings cannot drive it', () => {
  it('a rule, server or phase with ESC, CR or a bidi control prints them as \\uXXXX, in the table and in the notes', () => {
    const s = summary();
    const check = s.regression!.rules[0]!.checks[0]!;
    const evil = { ...s.regression!, rules: [{ ...s.regression!.rules[0]!, checks: [{ ...check, server: 'srv\u001b]0;owned\u0007', phase: 'p\rhidden\u202e' }] }] };
    const out = formatRegression(evil);
    expect(out).not.toMatch(/[\u001b\u0007\r\u202e]/);
    expect(out).toContain('srv\\u001b]0;owned\\u0007 / p\\u000dhidden\\u202e');
    // the note under the table names the place too
    expect(out.split('\n').filter((l) => l.includes('owned')).length).toBeGreaterThanOrEqual(2);
  });
});

describe('--junit: valid against the JUnit schema, user strings escaped', () => {
  it('validates against Apache Ant\'s JUnit XSD, and each hostile string reads back exactly (controls as U+FFFD)', async () => {
    const xml = ciJunit(summary(), new Date('2026-01-02T03:04:05.678Z'));
    expect(await junitSchemaErrors(xml)).toEqual([]);
    const doc = new DOMParser().parseFromString(xml, 'text/xml');
    const cases = Array.from(doc.getElementsByTagName('testcase'));
    expect(cases.map((c) => c.getAttribute('classname'))).toEqual(['loadscope.thresholds', 'loadscope.regression', 'loadscope.regression']);
    expect(cases[0]!.getAttribute('name')).toBe(`${HOSTILE.check} [${HOSTILE.server}x\ufffdy\ufffdz / ${HOSTILE.phase} / ${HOSTILE.endpoint}]`);
    expect(cases[1]!.getAttribute('name')).toBe(summary().regression!.rules[0]!.rule.text);
    // a failure per failed threshold and rule, none for the rule that passed
    expect(cases.map((c) => c.getElementsByTagName('failure').length)).toEqual([1, 1, 0]);
    expect(cases[1]!.getElementsByTagName('failure')[0]!.textContent).toContain(`${HOSTILE.server} / ${HOSTILE.phase} / ${HOSTILE.endpoint}`);
    expect(cases[1]!.getElementsByTagName('failure')[0]!.textContent).toContain('changed x\ufffdy\ufffdz');
    const suites = Array.from(doc.getElementsByTagName('testsuite'));
    expect(suites.map((s) => [s.getAttribute('tests'), s.getAttribute('failures'), s.getAttribute('timestamp')])).toEqual([
      ['1', '1', '2026-01-02T03:04:05'],
      ['2', '1', '2026-01-02T03:04:05'],
    ]);
    const property = Array.from(doc.getElementsByTagName('property')).find((p) => p.getAttribute('name') === 'scenario');
    expect(property?.getAttribute('value')).toBe(HOSTILE.scenario);
  });

  it('the schema check has teeth: a file without the suite\'s required parts is refused', async () => {
    const xml = ciJunit(summary()).replace(/<properties>.*?<\/properties>/s, '');
    expect((await junitSchemaErrors(xml)).join('\n')).toMatch(/properties/);
  });
});
