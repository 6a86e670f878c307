import { z } from 'zod';

// Data files kept with a library scenario (issue 39). A library scenario has no folder, so the CSV or
// JSON-lines files its `data` entries name are uploaded once (library:upload-data), stored beside its
// text and saved with each version (library:save `files`); a relative `data[i].file` of a library
// scenario is the name of one of them. The editor and the engine judge a name by the same rule here.

/** A kept file's size at most (bytes): above it an upload is refused and nothing is stored. The
 *  browser host gives an upload's body room for it (contract/upload-limits.ts). */
export const KEPT_FILE_MAX_BYTES = 2 * 1024 * 1024;
/** Files one version keeps: as many as its `data` list may name (contract/scenario.ts). */
export const KEPT_FILES_MAX = 16;
/** A scenario exported with its kept files (one JSON document) at most, in characters: 16 files of the
 *  largest size, escaped, and the scenario. */
export const BUNDLE_MAX_CHARS = 48 * 1024 * 1024;
/** An upload's base64 at most: past the byte limit with room, so a file a little too big gets the engine's own one-line answer. */
const UPLOAD_BASE64_MAX = 4 * KEPT_FILE_MAX_BYTES;

const Hash = z.string().regex(/^[0-9a-f]{64}$/, 'must be the SHA-256 (64 hex digits) library:upload-data returned');

/** A file a draft or a version keeps: its name (what `data[i].file` says) and its content's SHA-256. */
export const KeptFileRef = z.strictObject({ name: z.string().min(1).max(200), hash: Hash });
export type KeptFileRef = z.infer<typeof KeptFileRef>;
/** A version's or a run's kept files: at most one a name. */
export const KeptFileRefs = z.array(KeptFileRef).max(KEPT_FILES_MAX).refine((files) => new Set(files.map((f) => f.name)).size === files.length, 'each kept file has its own name');

/** A kept file as the editor lists it: no byte of its content (it may hold credentials). */
export const KeptFile = z.object({
  name: z.string(),
  hash: z.string(),
  bytes: z.number(),
  /** as its name says: .jsonl / .ndjson are JSON lines, anything else CSV */
  format: z.enum(['csv', 'jsonl']),
  rows: z.number(),
  columns: z.array(z.string()),
});
export type KeptFile = z.infer<typeof KeptFile>;

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9 ._-]*$/;

/**
 * Why `name` cannot name a kept file, or null: a relative path of plain segments (letters, digits,
 * space, . _ -, none starting with a dot or a space), at most 200 characters. No `..`, no absolute
 * path, no backslash: a name is a key in the store, never a place on the disk.
 */
export function keptNameProblem(name: string): string | null {
  if (name.length === 0 || name.length > 200) return 'a kept file is named in 1 to 200 characters';
  if (name.includes('\\') || name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'a kept file is named by a relative path (no drive, no leading / or \\)';
  if (name.split('/').some((s) => s === '..' || s === '.')) return 'a kept file is named without . or .. (it is a name in the library, not a place on the disk)';
  if (!name.split('/').every((s) => SEGMENT.test(s))) return 'a kept file is named with letters, digits, space, . _ - (no part starting with a dot or a space)';
  return null;
}

/** The format a kept file's name says (what the editor proposes for its data entry). */
export function keptFormatOf(name: string): 'csv' | 'jsonl' {
  return /\.(jsonl|ndjson)$/i.test(name) ? 'jsonl' : 'csv';
}

/** A byte count as the limits are stated. */
export function keptBytesText(n: number): string {
  const mib = 1024 * 1024;
  if (n >= mib) return `${(n / mib).toFixed(n % mib === 0 ? 0 : 1)} MiB`;
  return n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} bytes`;
}

/** Why a file of `bytes` cannot be kept, or null: the one size rule, asked before a byte is read. */
export function keptSizeProblem(name: string, bytes: number): string | null {
  return bytes > KEPT_FILE_MAX_BYTES ? `${name} is ${bytes} bytes; a data file kept with a library scenario may have at most ${keptBytesText(KEPT_FILE_MAX_BYTES)}` : null;
}

export const keptFileCalls = {
  /** A data file's content, checked (size, text, rows) and stored until a save keeps it; nothing stored when refused. */
  'library:upload-data': { request: z.strictObject({ name: z.string().min(1).max(1000), base64: z.string().max(UPLOAD_BASE64_MAX) }), response: KeptFile },
  /** The scenario and its kept files as one JSON document (the editor's Export; `library:import` takes it back). */
  'library:bundle': {
    request: z.strictObject({ text: z.string().min(1).max(2_000_000), files: KeptFileRefs }),
    response: z.object({ fileName: z.string(), text: z.string() }),
  },
} as const;
