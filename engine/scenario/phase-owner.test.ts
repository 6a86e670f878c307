import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rootPath } from '../paths.js';

// contract/phase.ts owns every fact about a phase (name, length, expected requests, arrivals end,
// progress plan, ramp, words); the executor folders own the state machines. Anywhere else, branching
// on a phase's executor is a second owner in the making: this test fails on a new one.

const OWNERS = ['contract/phase.ts', 'contract/scenario.ts', 'engine/driver/executors/'];

/** Files that branch on an executor for a reason of their own, not a phase fact: how many times, and why. */
const EXCEPTIONS: Record<string, { branches: number; why: string }> = {
  'engine/k6/k6-plan.ts': { branches: 1, why: "k6's translation of each executor into k6 executor options (k6's concept, not the phase's)" },
  'engine/k6/k6-script.ts': { branches: 1, why: 'the k6 script ships its poisson arrival helper only when a rate phase asks for poisson arrivals' },
  'engine/scenario/capacity-check.ts': { branches: 2, why: 'a capacity search steps a rate phase (its rate) or a closed phase (its users): its own rule' },
  'engine/run/capacity-generator.ts': { branches: 2, why: 'the capacity search sets the stepped field: rate or users' },
  'engine/run/run-progress.ts': { branches: 1, why: 'whether a capacity search can step the scenario (the same capacity rule)' },
};

const PATTERNS = [
  /switch\s*\([^)]*\bexecutor\s*\)/,
  /(?<!typeof\s+[\w.]*)\.executor\s*[!=]==?\s*['"`]/,
  /['"`][\w-]+['"`]\s*[!=]==?\s*[\w.]*\.executor\b/,
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'test-support' ? [] : sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** `file:line` of every place outside the owners that branches on a phase's executor. */
export function executorBranches(root: string): string[] {
  const found: string[] = [];
  for (const top of ['contract', 'engine', 'renderer', 'cli', 'db']) {
    for (const file of sources(join(root, top))) {
      const rel = relative(root, file).split('\\').join('/');
      if (OWNERS.some((o) => rel === o || rel.startsWith(o))) continue;
      readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        if (PATTERNS.some((p) => p.test(line))) found.push(`${rel}:${i + 1}`);
      });
    }
  }
  return found;
}

const byFile = (found: string[]): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const at of found) counts.set(at.split(':')[0]!, (counts.get(at.split(':')[0]!) ?? 0) + 1);
  return counts;
};

describe('the phase has one owner', () => {
  it('no file outside contract/phase.ts and the executor folders branches on a phase executor, but the listed exceptions as often as listed', () => {
    const found = executorBranches(rootPath('.'));
    const counts = byFile(found);
    const offenders = found.filter((at) => {
      const file = at.split(':')[0]!;
      return (counts.get(file) ?? 0) > (EXCEPTIONS[file]?.branches ?? 0);
    });
    expect(offenders).toEqual([]);
  });

  it('every exception still branches as listed (a stale one is updated or removed)', () => {
    const counts = byFile(executorBranches(rootPath('.')));
    expect(Object.entries(EXCEPTIONS).filter(([file, e]) => counts.get(file) !== e.branches).map(([file]) => file)).toEqual([]);
  });

  it('catches the shapes it guards', () => {
    const lines = ["switch (phase.executor) {", "if (p.executor === 'rate') return 1;", "const open = 'rate' === p.executor;", "x.executor !== 'closed'"];
    expect(lines.map((l) => PATTERNS.some((p) => p.test(l)))).toEqual([true, true, true, true]);
    expect(PATTERNS.some((p) => p.test("typeof v.executor === 'string'"))).toBe(false);
  });
});
