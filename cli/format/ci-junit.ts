import { DOMImplementation, XMLSerializer } from '@xmldom/xmldom';
import { hostname } from 'node:os';
import type { ThresholdResult } from '../../contract/thresholds.js';
import type { CiSummary } from './ci-markdown.js';
import { checkIntervalText, checkPlace, ruleChangeText, ruleValueText, sidesText, tooWideText } from '../../contract/regression-words.js';

// `--junit FILE`: each threshold and each regression rule one test case, in the Apache Ant JUnit
// layout CI systems read (testsuites > testsuite with properties, testcases, system-out and
// system-err; the Ant schema declares no attributes on testsuites; the test validates the file
// against that schema). Built as a DOM and serialised, so
// every user string is escaped by the serialiser; characters XML 1.0 cannot carry at all (most
// controls, lone surrogates) are replaced first.

const NOT_XML = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;
const xmlSafe = (text: string) => text.replace(NOT_XML, '\ufffd');

/** xs:dateTime without a zone or fraction, as the Ant schema asks */
const timestamp = (iso: string) => iso.slice(0, 19);

interface Case {
  name: string;
  classname: string;
  /** null: passed; else the failure's message (one line) and its detail */
  failure: { message: string; detail: string } | null;
  /** a passing case's warning (a check too wide to judge): the suite's system-out carries it, JUnit having no warning of its own */
  warning?: string;
}

function thresholdCase(t: ThresholdResult): Case {
  const place = `${t.server} / ${t.phase}${t.request ? ` / ${t.request}` : ''}`;
  const measured = t.measured === null ? 'no value (not measured)' : String(t.measured);
  return {
    name: `${t.check} [${place}]`,
    classname: 'loadscope.thresholds',
    failure: t.passed ? null : { message: `${t.check} failed at ${place}: measured ${measured}`, detail: `threshold ${t.check}\nat ${place}\nmeasured ${measured}, limit ${t.op} ${t.limit}` },
  };
}

export function ciJunit(s: CiSummary, now: Date = new Date()): string {
  const doc = new DOMImplementation().createDocument(null, 'testsuites', null);
  const root = doc.documentElement!;
  const el = (name: string, attrs: Record<string, string | number> = {}, text?: string) => {
    const e = doc.createElement(name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, xmlSafe(String(v)));
    if (text !== undefined) e.appendChild(doc.createTextNode(xmlSafe(text)));
    return e;
  };
  const cases = {
    thresholds: s.thresholds.map(thresholdCase),
    'regression rules': (s.regression?.rules ?? []).map((r): Case => {
      const lines = r.checks.map((c) => `${checkPlace(c)}: baseline ${ruleValueText(r.rule, c.baseline)}, now ${ruleValueText(r.rule, c.now)}, change ${ruleChangeText(r.rule, c.change)} (95 % interval ${checkIntervalText(r.rule, c)}): ${tooWideText(c) ?? c.verdict}; ${c.why}`);
      const wide = r.checks.filter((c) => tooWideText(c) !== null);
      return {
        name: r.rule.text,
        classname: 'loadscope.regression',
        failure: r.verdict === 'pass' ? null : { message: `${r.rule.text}: ${r.why}`, detail: [s.regression ? sidesText(s.regression) : '', ...lines].join('\n') },
        ...(r.verdict === 'pass' && wide.length > 0 && { warning: `warning: ${r.rule.text}: ${r.why}\n${wide.map((c) => `  ${checkPlace(c)}: ${c.why}`).join('\n')}` }),
      };
    }),
  };
  const scenario = xmlSafe(s.scenarioName);
  const host = hostname() || 'localhost';
  let id = 0;
  for (const [suite, list] of Object.entries(cases)) {
    if (list.length === 0) continue;
    const failed = list.filter((c) => c.failure !== null).length;
    const ts = el('testsuite', { name: `${scenario} ${suite}`, package: `loadscope.${suite.replace(/ /g, '-')}`, id: id++, timestamp: timestamp(now.toISOString()), hostname: host, tests: list.length, failures: failed, errors: 0, time: 0 });
    const props = el('properties');
    props.appendChild(el('property', { name: 'scenario', value: s.scenarioName }));
    props.appendChild(el('property', { name: 'runs', value: s.runs.map((r) => r.id).join(',') }));
    if (s.regression) props.appendChild(el('property', { name: 'baseline', value: s.regression.baselineRunIds.join(',') }));
    ts.appendChild(props);
    for (const c of list) {
      const tc = el('testcase', { name: c.name, classname: c.classname, time: 0 });
      if (c.failure) tc.appendChild(el('failure', { message: c.failure.message, type: c.classname === 'loadscope.thresholds' ? 'threshold' : 'regression' }, c.failure.detail));
      ts.appendChild(tc);
    }
    ts.appendChild(el('system-out', {}, list.flatMap((c) => (c.warning === undefined ? [] : [c.warning])).join('\n')));
    ts.appendChild(el('system-err', {}, ''));
    root.appendChild(ts);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(doc)}\n`;
}
