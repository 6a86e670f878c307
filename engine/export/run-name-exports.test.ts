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
// 24): the HTML report's title and header, the PNG's title and header, and both CSVs as leading
// comment lines. The name and note are hostile on purpose: markup, a formula, a comma, quotes and a
// line break that must not end a comment and start a data row. A real SQLite file, read back.

const NAME = '</title><script>alert(1)</script> "tuned", =HYPERLINK("x")';
const NOTE = 'after the pool fix\n=cmd|\' /C calc\'!A0, second line\r\nthird <b>line</b>';

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

  it('CSV (requests and summary): comment lines a reader skips, each a two-cell row with formulas neutralised', async () => {
    const runId = storedRun(true);
    for (const format of ['csv', 'csv-summary'] as const) {
      const csv = await text(runId, format);
      const records = parse(csv, { relax_column_count: true }) as string[][];
      // without the comment option: the name and each line of the note as a row of their own, as text
      expect(records.slice(0, 4), format).toEqual([
        ['#run_name', NAME],
        ['#run_note', 'after the pool fix'],
        ['#run_note', "'=cmd|' /C calc'!A0, second line"],
        ['#run_note', 'third <b>line</b>'],
      ]);
      expect(records[4]![0], format).toBe('run_id');
      // with it: exactly the CSV of the run without a name, one row per request or phase
      const rows = parse(csv, { comment: '#', columns: true }) as Record<string, string>[];
      expect(rows.length, format).toBe(format === 'csv' ? 5 : 1);
      expect(rows.every((r) => r.run_id === String(runId)), format).toBe(true);
    }
    // no comment line for a run without a name or note
    expect((await text(storedRun(false), 'csv')).startsWith('run_id,')).toBe(true);
  });

  it("compare CSV: each named run's comment lines by its column's name, then the paired table", async () => {
    const a = storedRun(false);
    const b = storedRun(true);
    const csv = (await compareExport(temp.store, [a, b], 'csv')).bytes.toString('utf8');
    const records = parse(csv, { relax_column_count: true }) as string[][];
    expect(records.slice(0, 4).map((r) => r[0])).toEqual([`#run_${b}_name`, `#run_${b}_note`, `#run_${b}_note`, `#run_${b}_note`]);
    expect(records[0]![1]).toBe(NAME);
    expect(records[4]!.slice(0, 3)).toEqual(['server', 'cell', 'phase']);
    expect(records[4]).toContain(`run_${b}`);
    const rows = parse(csv, { comment: '#', columns: true }) as Record<string, string>[];
    expect(rows.length).toBeGreaterThan(0);
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
