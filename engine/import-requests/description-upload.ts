import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { refuseOversized } from './description-text.js';
import type { ImportResult } from './imported-scenario.js';
import { openApiToScenario } from './openapi.js';
import { postmanToScenario } from './postman.js';

// The UI's "Import API description": the text of a file the person picked, an OpenAPI description or
// a Postman collection (told apart by the collection's schema URL), made into a scenario by the same
// importers as the CLI. A scenario in the editor has no folder, so its data file is kept in the
// engine's data folder (beside the database, under imported/) and named by its absolute path.
// keepFiles is the one place that decides where: the library keeping a scenario's files with it
// (issue 39, part E) replaces it.

export interface DescriptionUpload {
  text: string;
  source: string;
  baseUrl?: string | undefined;
}

/** A collection names its format's schema; an OpenAPI description does not. */
const isPostman = (text: string): boolean => /"schema"\s*:\s*"https?:\/\/schema\.(getpostman|postman)\.com\/json\/collection\//.test(text.slice(0, 64 * 1024));

/** Where imported scenarios' files are kept: beside the database (a database in memory: the temp folder). */
export function importedFilesFolder(dbPath: string): string {
  return dbPath === ':memory:' ? join(tmpdir(), 'loadscope-imported') : join(dirname(resolve(dbPath)), 'imported');
}

/** The result's files written into a folder of their own under `root` (owner-only), the scenario naming them there. */
function keepFiles(result: ImportResult, root: string): { text: string; files: string[] } {
  const files = result.files ?? [];
  if (files.length === 0) return { text: result.text, files: [] };
  const doc = JSON.parse(result.text) as { name: string; data?: { file: string }[] };
  const folder = join(root, `${doc.name}-${Date.now()}-${randomBytes(3).toString('hex')}`);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const written = new Map(files.map((f) => [f.name, join(folder, f.name)]));
  for (const f of files) writeFileSync(written.get(f.name)!, f.text, { flag: 'wx', mode: 0o600 });
  for (const d of doc.data ?? []) d.file = written.get(d.file) ?? d.file;
  return { text: `${JSON.stringify(doc, null, 2)}\n`, files: [...written.values()] };
}

export async function importDescriptionUpload(upload: DescriptionUpload, filesRoot: string): Promise<{ text: string; notes: string[]; files: string[] }> {
  const postman = isPostman(upload.text);
  refuseOversized(upload.text, upload.source, postman ? 'a Postman collection' : 'an API description');
  const opts = { baseUrl: upload.baseUrl === undefined || upload.baseUrl.trim() === '' ? undefined : upload.baseUrl.trim() };
  const result = postman ? postmanToScenario(upload.text, upload.source, opts) : await openApiToScenario(upload.text, upload.source, opts);
  return { ...keepFiles(result, filesRoot), notes: result.notes };
}
