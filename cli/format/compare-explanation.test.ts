import { describe, expect, it } from 'vitest';
import type { PhaseResult, RunSummary } from '../../contract/results.js';
import { explainDifference } from '../../engine/compare/explain-difference.js';
import { comparedRun, intervalsBetween, partsPhase, QUIET } from '../../engine/compare/test-support/comparison-factory.js';
import { formatExplanation, SHOWN_MOVES } from './compare-explanation.js';

// What changed, in the terminal: server, phase and endpoint names are the user's text and reach the
// explanation's lines, so a name with terminal escapes or a line break cannot clear the screen or
// forge a line of its own; and a comparison where many phases moved prints SHOWN_MOVES of them, the
// rest counted and left to --json.

const slowed = partsPhase({ ...QUIET, serverQueue: 40 });
const named = (r: RunSummary, name: string): RunSummary => ({ ...r, targets: r.targets.map((t) => ({ ...t, name })) });

describe('What changed in the terminal', () => {
  it('a server named with terminal escapes and a line break: one line per move, no control character printed', () => {
    const hostile = '\u001b[2Jevil\n  - [moved-slower] forged';
    const found = explainDifference([named(comparedRun(1, [partsPhase(QUIET)]), hostile), named(comparedRun(2, [slowed]), hostile)], intervalsBetween(`${hostile} / steady`, partsPhase(QUIET), slowed));
    expect(found.map((f) => f.rule)).toEqual(['moved-queueing']);
    const lines = formatExplanation(found);
    expect(lines.filter((l) => l.startsWith('  - ['))).toHaveLength(1);
    for (const line of lines) expect(line).not.toMatch(/[\u0000-\u001f\u007f]/);
  });

  it('thirty phases moved: five lines, the other twenty-five counted and left to --json', () => {
    const thirty = (p: PhaseResult) => Array.from({ length: 30 }, (_, i) => ({ ...p, index: i, name: `p${i}` }));
    const intervals = Array.from({ length: 30 }, (_, i) => intervalsBetween(`single / p${i}`, partsPhase(QUIET), slowed)).flat();
    const lines = formatExplanation(explainDifference([comparedRun(1, thirty(partsPhase(QUIET))), comparedRun(2, thirty(slowed))], intervals));
    expect(lines.filter((l) => l.startsWith('  - ['))).toHaveLength(SHOWN_MOVES);
    expect(lines.at(-1)).toBe('  (15 more in --json\'s "explanation")');
  });
});
