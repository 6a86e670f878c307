import { afterEach, describe, expect, it } from 'vitest';
import { histograms, newRun, phaseResult, requestBatch } from '../../db/test-support/factories.js';
import { useTempStore } from '../../db/test-support/temp-store.js';
import { formatRunSummary } from './run-summary.js';
import { textTable } from './table.js';

// CLI tables fitted to the terminal (issue 36: a matrix run's table printed 330 columns wide, each
// line wrapped by the terminal into a jumble): at COLUMNS=100 no line of `run`/`show`'s table is
// wider, every figure is still there whole, every server run's name told apart; a table that fits is
// printed as before, and a file or a pipe (no terminal) keeps the full width.

const temp = useTempStore();
const saved = process.env.COLUMNS;
afterEach(() => {
  if (saved === undefined) delete process.env.COLUMNS;
  else process.env.COLUMNS = saved;
});

const SERVERS = ['cluster', 'offload'];
const CELLS = [1, 2].flatMap((w) => ['/fib?n=15', '/fib?n=20'].flatMap((p) => [2, 4].map((u) => ({ 'servers[*].options.workers': w, 'phases[0].requests[0].path': p, 'phases[0].users': u }))));

/** A stored 2x2x2 matrix of two servers (16 server runs), each with figures of its own. */
function matrixRun(): number {
  const runId = temp.store.createRun(newRun({ scenarioName: 'm222', title: 'm222' }));
  temp.store.addCells(runId, CELLS.map((params, index) => ({ index, params, label: Object.entries(params).map(([k, v]) => `${k}=${v}`).join(', ') })));
  let n = 0;
  CELLS.forEach((_, cellIndex) =>
    SERVERS.forEach((server, serverIndex) => {
      const id = temp.store.createTarget({ runId, cellIndex, serverIndex, label: server, architecture: server, status: 'running', startedAt: new Date().toISOString() });
      temp.store.savePhase(id, phaseResult(0, { name: 'load', throughput: 1000 + 17.3 * n++ }), histograms());
      temp.store.insertRequests(id, requestBatch(0, 5));
      temp.store.updateTarget(id, { status: 'completed', durationMs: 1000 });
    }),
  );
  temp.store.finishRun(runId, 'completed', null);
  return runId;
}

/** The table's lines: from its first heading to the line before the notes under it. */
const tableOf = (text: string) => {
  const lines = text.split('\n');
  const from = lines.findIndex((l) => l.startsWith('server'));
  const to = lines.findIndex((l, i) => i > from && l.startsWith('matrix cells:'));
  return lines.slice(from, to);
};

describe('CLI tables fitted to the terminal', () => {
  it("a 2x2x2 matrix's run table at COLUMNS=100: no line wider, every figure whole, every server run named apart", () => {
    const run = temp.store.getRun(matrixRun());
    process.env.COLUMNS = '100';
    const table = tableOf(formatRunSummary(run));
    for (const l of table) expect(l.length, l).toBeLessThanOrEqual(100);
    // every throughput figure is printed whole, each once
    for (let n = 0; n < 16; n++) expect(table.filter((l) => l.includes((1000 + 17.3 * n).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 }))), `throughput of server run ${n}`).toHaveLength(1);
    // the first block's rows: a name line carries the figures, a wrapped name continues below it
    const rule = table.findIndex((l) => l.startsWith('---'));
    const names: string[] = [];
    for (const l of table.slice(rule + 1)) {
      if (l === '') break;
      const name = l.slice(0, l.indexOf('  ') === -1 ? l.length : l.indexOf('  ')).trim();
      if (/\d\s*$/.test(l) && /\s{2,}\S/.test(l)) names.push(name);
      else names[names.length - 1] += ` · ${name}`;
    }
    expect(names).toHaveLength(16);
    expect(new Set(names).size).toBe(16);
    delete process.env.COLUMNS;
    const wide = tableOf(formatRunSummary(run));
    expect(Math.max(...wide.map((l) => l.length)), 'no terminal: the full width').toBeGreaterThan(150);
  });

  it('a table that fits, and one at 40 columns: the first printed as before, the second within 40 with its headings wrapped, every figure whole', () => {
    const header = ['server / phase', 'requests', 'processing mean (ms)', 'client queue p99 (ms)'];
    const rows = [['thread-pool / load', '100', '0.07', '6.40']];
    expect(textTable(header, rows, undefined, 200).split('\n')[0]).toBe('server / phase      requests  processing mean (ms)  client queue p99 (ms)');
    const narrow = textTable(header, rows, undefined, 40).split('\n');
    for (const l of narrow) expect(l.length, l).toBeLessThanOrEqual(40);
    expect(narrow.join('\n')).toContain('processing');
    expect(narrow.join('\n')).toMatch(/0\.07/);
    expect(narrow.join('\n')).toMatch(/6\.40/);
  });
});
