import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { LIGHT } from '../../contract/report/palette.js';
import { buildRunReport } from '../../contract/report/run-report.js';
import { histograms, newRun, phaseResult, requestBatch } from '../../db/test-support/factories.js';
import { useTempStore } from '../../db/test-support/temp-store.js';
import { compareExport, runExport } from './export-run.js';
import { runSummaryPng, type DrawnText } from './png.js';
import { reportInput } from './report-data.js';

// A run's name and note (`loadscope annotate`, runs:annotate) travel with every export of it (issue
// 24): the HTML report's title and header, the PNG's title and header, and the CSVs as columns after
// every other, the header first (issue 36). The name and note are hostile on purpose: markup, a formula, a comma, quotes and a
// line break that must stay inside its cell and never start a data row. A real SQLite file, read back.

const NAME = '</title><script>alert(1)</script> "tuned", =HYPERLINK("x")';
const NOTE = 'after the pool fix\n=cmd|\' /C calc\'!A0, second line\r\nthird <b>line</b>';

/** The name and note as their CSV cells hold them: formula-neutralised with a leading ' (csv-cell.ts). */
const NAME_CELL = NAME;
const NOTE_CELL = "after the pool fix\n=cmd|' /C calc'!A0, second line\r\nthird <b>line</b>";

/** The rows Python's csv.DictReader reads from a CSV text (the real module, as a notebook would). */
function pythonDictRows(csv: string): Record<string, string>[] {
  const script = 'import csv, io, json, sys\nprint(json.dumps(list(csv.DictReader(io.StringIO(sys.stdin.read(), newline="")))))';
  const r = spawnSync('python3', ['-c', script], { input: csv, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3 csv.DictReader failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, string>[];
}

const temp = useTempStore();

function storedRun(annotate: boolean): number {
  const runId = temp.store.createRun(newRun());
  temp.store.addCells(runId, [{ index: 0, label: '', params: {} }]);
  const id = temp.store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'thread-pool', architecture: 'thread-pool', status: 'running', startedAt: new Date().toISOString() });
  temp.store.savePhase(id, phaseResult(0), histograms());
  temp.store.insertRequests(id, requestBatch(0, 5));
  temp.store.updateTarget(id, { status: 'completed', durationMs: 1000 });
  temp.store.finishRun(runId, 'completed', null);
  if (annotate) temp.store.annotateRun(runId, { name: NAME, note: NOTE });
  return runId;
}

const text = async (runId: number, format: 'html' | 'csv' | 'csv-summary') => (await runExport(temp.store, runId, format)).bytes.toString('utf8');

describe("a run's name and note in its exports", () => {
  it('HTML: the name in the page title and heading, the note under it, all as escaped text', async () => {
    const html = await text(storedRun(true), 'html');
    const escaped = '&#60;/title&#62;&#60;script&#62;alert(1)&#60;/script&#62; &#34;tuned&#34;, =HYPERLINK(&#34;x&#34;)';
    expect(html).toContain(`<title>Run 1: ${escaped}</title>`);
    expect(html).toContain(`<h1>Run 1: ${escaped}</h1>`);
    expect(html).toContain('<p class="run-note" data-run-note>after the pool fix\n=cmd|&#39; /C calc&#39;!A0, second line\r\nthird &#60;b&#62;line&#60;/b&#62;</p>');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<b>line</b>');
    // a run nobody named keeps its generated title and has no note block
    const plain = await text(storedRun(false), 'html');
    expect(plain).not.toContain('data-run-note');
    expect(plain).toMatch(/<h1>Run 2: [^<]+<\/h1>/);
  });

  it("CSV (requests and summary): the header first, the name (and the summary's note) as columns, read as is by Python's csv.DictReader", async () => {
    const runId = storedRun(true);
    for (const format of ['csv', 'csv-summary'] as const) {
      const csv = await text(runId, format);
      expect(csv.startsWith('run_id,'), format).toBe(true);
      const rows = parse(csv, { columns: true }) as Record<string, string>[];
      expect(rows.length, format).toBe(format === 'csv' ? 5 : 1);
      expect(rows.every((r) => r.run_id === String(runId) && r.run_name === NAME_CELL), format).toBe(true);
      // Python's csv module, as a notebook reads the file: every row a data row, the columns named by the first line
      const read = pythonDictRows(csv);
      expect(read.length, format).toBe(rows.length);
      expect(read.every((r) => r.run_id === String(runId) && r.run_name === NAME_CELL), format).toBe(true);
      if (format === 'csv-summary') expect(read[0]!.run_note).toBe(NOTE_CELL);
      else expect(read[0]).not.toHaveProperty('run_note');
    }
    // a run without a name or note: the same columns, empty
    const plain = parse(await text(storedRun(false), 'csv'), { columns: true }) as Record<string, string>[];
    expect(plain.every((r) => r.run_name === '')).toBe(true);
  });

  it("compare CSV: the paired table's header first, each run's name in a run_<id>_name column", async () => {
    const a = storedRun(false);
    const b = storedRun(true);
    const csv = (await compareExport(temp.store, [a, b], 'csv')).bytes.toString('utf8');
    expect(csv.startsWith('server,cell,phase,')).toBe(true);
    const read = pythonDictRows(csv);
    expect(read.length).toBeGreaterThan(0);
    expect(read.every((r) => r[`run_${a}_name`] === '' && r[`run_${b}_name`] === NAME_CELL)).toBe(true);
  });

  it('PNG: the name in the drawn title, the note lines under the subtitle', async () => {
    const runId = storedRun(true);
    const drawn: DrawnText[] = [];
    await runSummaryPng(buildRunReport(reportInput(temp.store, runId), LIGHT), drawn);
    const texts = drawn.map((d) => d.text);
    expect(texts[0]).toBe(`Run 1: ${NAME}`);
    expect(texts).toContain('after the pool fix');
    expect(texts).toContain("=cmd|' /C calc'!A0, second line");
    expect(texts).toContain('third <b>line</b>');
  });
});
