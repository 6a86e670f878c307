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
    expect(issueLines(text, [{ path: 'servers[1].options.workers' }, { path: 'phases[0].users' }, { path: 'phases[0].count' }, { path: '(json)', line: 7 }])).toEqual([
      lineOf('"workers": "two"'),
      lineOf('"users": 3'),
      lineOf('"executor": "closed"') - 1,
      7,
    ]);
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
