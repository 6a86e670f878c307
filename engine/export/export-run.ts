import type { CompareResult, ExportFormat, ExportResult } from '../../contract/api.js';
import { buildCompareReport } from '../../contract/report/compare-report.js';
import { LIGHT } from '../../contract/report/palette.js';
import { buildRunReport } from '../../contract/report/run-report.js';
import type { Store } from '../../db/store.js';
import { compareData } from './compare-data.js';
import { CSV_EOL } from './csv-cell.js';
import { csvLines } from './csv.js';
import { compareHtml, runHtml } from './html.js';
import { runSummaryPng } from './png.js';
import { reportInput } from './report-data.js';
import { compareCsv, summaryCsv } from './summary-csv.js';

// Every export of a run or a comparison, as bytes and a file name: the CLI writes them to a file,
// the UI's buttons receive them through the API. One function each, so both give the same file.

export interface ExportFile {
  fileName: string;
  mimeType: string;
  bytes: Buffer;
}

/** The request CSV, for callers that hold it whole (the API); the CLI streams csvLines instead. */
export function requestCsv(store: Store, runId: number): string {
  return [...csvLines(store, store.getRun(runId))].join(CSV_EOL) + CSV_EOL;
}

export async function runExport(store: Store, runId: number, format: ExportFormat): Promise<ExportFile> {
  const base = `loadscope-run-${runId}`;
  if (format === 'csv') return { fileName: `${base}.csv`, mimeType: 'text/csv', bytes: Buffer.from(requestCsv(store, runId)) };
  const input = reportInput(store, runId, true);
  const report = buildRunReport(input, LIGHT);
  if (format === 'csv-summary') return { fileName: `${base}-summary.csv`, mimeType: 'text/csv', bytes: Buffer.from(summaryCsv({ id: runId, name: report.name, note: report.note, targets: input.run.targets }, report.rows)) };
  if (format === 'png') return { fileName: `${base}.png`, mimeType: 'image/png', bytes: await runSummaryPng(report) };
  return { fileName: `${base}.html`, mimeType: 'text/html', bytes: Buffer.from(runHtml(report)) };
}

/** A comparison's file; `comparison`: the one a command already built for these runs (its bootstrap is not made again). */
export async function compareExport(store: Store, runIds: readonly number[], format: 'html' | 'csv', comparison: CompareResult = compareData(store, runIds)): Promise<ExportFile> {
  const { intervals, differences, explanation } = comparison;
  const report = buildCompareReport({ runs: runIds.map((id) => reportInput(store, id)), intervals, differences, explanation }, LIGHT);
  const base = `loadscope-compare-${runIds.join('-')}`;
  if (format === 'csv') {
    const runs = runIds.map((id) => ({ id, name: report.runs.find((r) => r.runId === id)?.name ?? null }));
    return { fileName: `${base}.csv`, mimeType: 'text/csv', bytes: Buffer.from(compareCsv(runs, report.pairs)) };
  }
  return { fileName: `${base}.html`, mimeType: 'text/html', bytes: Buffer.from(compareHtml(report)) };
}

const asResult = (f: ExportFile): ExportResult => ({ fileName: f.fileName, mimeType: f.mimeType, base64: f.bytes.toString('base64') });

/** An export as the contract carries it (base64), for the UI's download buttons. */
export async function exportRun(store: Store, runId: number, format: ExportFormat): Promise<ExportResult> {
  return asResult(await runExport(store, runId, format));
}

export async function exportCompare(store: Store, runIds: readonly number[], format: 'html' | 'csv'): Promise<ExportResult> {
  return asResult(await compareExport(store, runIds, format));
}
