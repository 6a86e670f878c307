import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../contract/results.js';
import { machine, phaseResult } from '../../db/test-support/factories.js';
import { formatRunSummary, runSummaryJson } from './run-summary.js';

// A native run's note (a phase that ended early because its unique data ran out) is printed once,
// as data: the phase, data and server names in it are the user's, so a control sequence in them is
// shown escaped, never sent to the terminal.

function run(engineNote: string | null): RunSummary {
  const target = { id: 10, cellIndex: 0, serverIndex: 0, label: 'single', name: 'single', architecture: 'single', status: 'completed' as const, reason: null, startedAt: null, durationMs: 1000, phases: [phaseResult(0, { name: 'login' })], peakCpu: null, peakRssBytes: null, peakProcesses: null, rawRows: 100, rawSampled: false };
  return { id: 1, scenarioName: 's', title: 's', status: 'completed', reason: null, quick: false, createdAt: '2026-11-25', endedAt: null, durationMs: 1000, machine, scenario: {}, engine: 'native', engineNote, cells: [], targets: [target], report: [], thresholds: [], group: null };
}

describe("a native run's note", () => {
  it('is printed on its own line, escaped, and kept in --json', () => {
    const note = "single: phase 'login\u001b[2J' ended early: data 'users' (order unique) ran out after its 3 rows";
    const text = formatRunSummary(run(note));
    expect(text).not.toContain('\u001b');
    expect(text.split('\n').filter((l) => l.startsWith('note: single: phase'))).toHaveLength(1);
    expect(text).toContain("ended early: data 'users' (order unique) ran out after its 3 rows");
    expect(runSummaryJson(run(note)).engineNote).toBe(note);
    expect(formatRunSummary(run(null))).not.toContain('note: ');
  });
});
