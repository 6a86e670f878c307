import { describe, expect, it } from 'vitest';
import { formatDoc, getAt, parseDocPath, setAt } from './doc-path';
import { issueLines } from './json-locate';

const text = formatDoc({
  name: 'x',
  servers: [{ architecture: 'single' }, { architecture: 'cluster', options: { workers: 'two' } }],
  phases: [{ executor: 'closed', users: 3, requests: [{ path: '/' }] }],
});
const lineOf = (needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('where an issue is in the text', () => {
  it('finds a path at the line of its field, a missing key at its object, a syntax error at its own line', () => {
    const at = (path: string, line?: number) => ({ path, message: 'x', ...(line === undefined ? {} : { line }) });
    expect(issueLines(text, [at('servers[1].options.workers'), at('phases[0].users'), at('phases[0].count'), at('(json)', 7)])).toEqual([
      lineOf('"workers": "two"'),
      lineOf('"users": 3'),
      lineOf('"executor": "closed"') - 1,
      7,
    ]);
  });

  it('finds an unknown key (reported on its object) at the key itself', () => {
    const withExtra = formatDoc({ name: 'x', phases: [{ executor: 'closed', users: 3, cuont: 5 }] });
    const line = withExtra.split('\n').findIndex((l) => l.includes('"cuont"')) + 1;
    expect(issueLines(withExtra, [{ path: 'phases[0]', message: 'unknown key "cuont" (did you mean "count"?)' }])).toEqual([line]);
  });
});

describe('an issue of a quick or matrix entry (its key is itself a path, quoted by the engine)', () => {
  it('is found at the entry in the quick profile, not at the phase it names', () => {
    const withQuick = formatDoc({ name: 'x', phases: [{ executor: 'ramping-users', stages: [{ target: 2, durationMs: 1000 }] }], quick: { 'phases[0].durationMs': 500 } });
    const line = withQuick.split('\n').findIndex((l) => l.includes('"phases[0].durationMs": 500')) + 1;
    expect(parseDocPath('quick["phases[0].durationMs"]')).toEqual(['quick', 'phases[0].durationMs']);
    expect(issueLines(withQuick, [{ path: 'quick["phases[0].durationMs"]', message: 'with the quick profile applied, phases[0]: unknown key "durationMs"' }])).toEqual([line]);
  });
});

describe('document paths', () => {
  it('reads and writes one field without touching the rest, and removes a field set to nothing', () => {
    const doc: unknown = JSON.parse(text);
    expect(parseDocPath('phases[0].requests[0].path')).toEqual(['phases', 0, 'requests', 0, 'path']);
    const changed = setAt(doc, parseDocPath('phases[0].rampTo'), 60);
    expect(getAt(changed, ['phases', 0, 'rampTo'])).toBe(60);
    expect(getAt(doc, ['phases', 0, 'rampTo'])).toBeUndefined();
    const removed = setAt(changed, ['servers', 0], undefined);
    expect(getAt(removed, ['servers'])).toEqual([{ architecture: 'cluster', options: { workers: 'two' } }]);
    expect(getAt(setAt(doc, ['phases', 0, 'users'], undefined), ['phases', 0])).toEqual({ executor: 'closed', requests: [{ path: '/' }] });
  });
});
