import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { RunWriter } from '../../../db/store.js';
import { importK6Files, type ImportSummary } from './import-k6.js';

// Files handed over by the UI pass through a temp folder, removed when the import ends whichever way
// it ends; one still there when the process exits (an import that never settled) goes then.

const open = new Set<string>();
let hooked = false;
const removeAll = () => {
  for (const dir of open) rmSync(dir, { recursive: true, force: true });
  open.clear();
};

/** Files handed over by the UI (name + base64) imported as one run. */
export async function importK6Upload(store: RunWriter, files: readonly { name: string; base64: string }[]): Promise<ImportSummary> {
  if (!hooked) {
    hooked = true;
    process.once('exit', removeAll);
  }
  const dir = mkdtempSync(join(tmpdir(), 'loadscope-k6-upload-'));
  open.add(dir);
  try {
    const paths = files.map((f, i) => {
      const path = join(dir, `${i}-${basename(f.name).replace(/[^\w.-]+/g, '_')}`);
      writeFileSync(path, Buffer.from(f.base64, 'base64'));
      return path;
    });
    return await importK6Files(store, paths);
  } finally {
    open.delete(dir);
    rmSync(dir, { recursive: true, force: true });
  }
}
