import type { ExportResult } from '../../contract/api.js';
import type { Store } from '../../db/store.js';
import { csvLines } from './csv.js';
import { renderRunPng } from './png.js';

/** An export as the contract carries it (base64), for the UI's download buttons. */
export async function exportRun(store: Store, runId: number, format: 'csv' | 'png'): Promise<ExportResult> {
  const run = store.getRun(runId);
  if (format === 'png') {
    const png = await renderRunPng(run);
    return { fileName: `loadscope-run-${runId}.png`, mimeType: 'image/png', base64: png.toString('base64') };
  }
  const text = [...csvLines(store, run)].join('\n') + '\n';
  return { fileName: `loadscope-run-${runId}.csv`, mimeType: 'text/csv', base64: Buffer.from(text).toString('base64') };
}
