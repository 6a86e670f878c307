import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Store } from '../../../db/store.js';
import { importK6Files, type ImportSummary } from './import-k6.js';

/** Files handed over by the UI (name + base64) imported as one run; they pass through a temp folder. */
export async function importK6Upload(store: Store, files: readonly { name: string; base64: string }[]): Promise<ImportSummary> {
  const dir = mkdtempSync(join(tmpdir(), 'loadscope-k6-upload-'));
  try {
    const paths = files.map((f, i) => {
      const path = join(dir, `${i}-${basename(f.name).replace(/[^\w.-]+/g, '_')}`);
      writeFileSync(path, Buffer.from(f.base64, 'base64'));
      return path;
    });
    return await importK6Files(store, paths);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
