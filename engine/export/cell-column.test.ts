import { parse as parseCsv } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { pairedTable } from '../../contract/report/compare-report.js';
import { phaseRows } from '../../contract/report/run-report.js';
import { histograms, newRun, phaseResult } from '../../db/test-support/factories.js';
import { useTempStore } from '../../db/test-support/temp-store.js';
import { compareCsv, summaryCsv } from './summary-csv.js';

// The CSVs of a matrix run (issue 24): the server column holds the server, the cell its own column
// with the cell's full key=value text, not folded into the server as "label - key=value - ...".
// Runs are stored in a real SQLite file and read back, so names come from the stored cells.

const temp = useTempStore();

const CELLS = [
  { index: 0, label: 'servers[*].cores=1, phases[0].count=10', params: { 'servers[*].cores': 1, 'phases[0].count': 10 } },
  { index: 1, label: 'servers[*].cores=2, phases[0].count=10', params: { 'servers[*].cores': 2, 'phases[0].count': 10 } },
];

function storeMatrixRun(): number {
  const runId = temp.store.createRun(newRun());
  temp.store.addCells(runId, CELLS);
  for (const cell of CELLS) {
    const id = temp.store.createTarget({ runId, cellIndex: cell.index, serverIndex: 0, label: 'thread-pool', architecture: 'thread-pool', status: 'running', startedAt: new Date().toISOString() });
    temp.store.savePhase(id, phaseResult(0), histograms());
    temp.store.updateTarget(id, { status: 'completed', durationMs: 1000 });
  }
  temp.store.finishRun(runId, 'completed', null);
  return runId;
}

/** A CSV as objects by header (csv-parse: empty cells, quotes and the leading '#' comment lines as a reader takes them). */
function parse(csv: string): Record<string, string>[] {
  return parseCsv(csv, { columns: true, comment: '#' }) as Record<string, string>[];
}

describe('the cell column of a matrix run', () => {
  it('summary CSV: server is the server, cell the full key=value text', () => {
    const run = temp.store.getRun(storeMatrixRun());
    expect(run.targets.map((t) => t.name)).toEqual(['thread-pool · cores 1', 'thread-pool · cores 2']);
    const rows = parse(summaryCsv(run, phaseRows(run)));
    expect(rows.map((r) => [r.server, r.cell])).toEqual([
      ['thread-pool', CELLS[0]!.label],
      ['thread-pool', CELLS[1]!.label],
    ]);
  });

  it('compare CSV: a cell column beside the server, one row per cell and metric', () => {
    const runs = [temp.store.getRun(storeMatrixRun()), temp.store.getRun(storeMatrixRun())];
    const header = compareCsv(runs, pairedTable(runs, [])).split(/\r?\n/)[0]!.split(',');
    expect(header.slice(0, 3)).toEqual(['server', 'cell', 'phase']);
    const rows = parse(compareCsv(runs, pairedTable(runs, []))).filter((r) => r.metric === 'total_p99_ms');
    expect(rows.map((r) => [r.server, r.cell])).toEqual([
      ['thread-pool', CELLS[0]!.label],
      ['thread-pool', CELLS[1]!.label],
    ]);
  });
});
