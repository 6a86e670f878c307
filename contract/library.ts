import { z } from 'zod';
import { BUNDLE_MAX_CHARS, KEPT_FILES_MAX, KEPT_FILE_MAX_BYTES, keptFileCalls, KeptFile, KeptFileRefs } from './kept-files.js';
import { uploadRoom } from './upload-limits.js';

// The scenario library's calls: the user's own scenarios, every saved version kept, next to the
// read-only built-ins. A scenario's name is the `name` in its text (like a built-in's file name), so
// the library, `loadscope run <name>` and stored runs all agree on it.

const Id = z.number().int().positive();

export const LibraryRef = z.object({ id: z.number(), name: z.string(), version: z.number() });
export type LibraryRef = z.infer<typeof LibraryRef>;

/** Where a run's scenario came from, for "open its scenario" and "run again". */
export const RunScenarioSource = z.object({
  /** the text as the run was started (before quick and --set) */
  text: z.string(),
  quick: z.boolean(),
  set: z.record(z.string(), z.string()),
  origin: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('builtin'), name: z.string() }),
    z.object({ kind: z.literal('library'), id: z.number(), name: z.string(), version: z.number(), latest: z.boolean() }),
    /** unsaved editor text, a file, a library scenario since deleted, or a run from before the library */
    z.object({ kind: z.literal('text'), name: z.string() }),
  ]),
  /** the data files the run read from the library (kept with its scenario); absent: none */
  files: z.array(KeptFile).optional(),
});
export type RunScenarioSource = z.infer<typeof RunScenarioSource>;

export const libraryCalls = {
  /**
   * Saves text as a new scenario (no id) or a new version of one; a rename when its name changed.
   * files: the data files this version keeps (uploaded first); absent: those of the version before (none for a new one).
   */
  'library:save': { request: z.strictObject({ id: Id.optional(), text: z.string().min(1).max(2_000_000), files: KeptFileRefs.optional() }), response: LibraryRef },
  /**
   * A scenario from a JSON file's text, or a bundle exported with its data files (library:bundle);
   * `files`: data files chosen with it (the CLI reads those beside a scenario file). `source` (the
   * file's name or path) names it in errors. Nothing is stored unless every relative data path is kept.
   */
  'library:import': {
    request: z.strictObject({
      // room past the bundle's limit: a bundle a little over gets the importer's one line, not the schema's
      text: z.string().max(uploadRoom(BUNDLE_MAX_CHARS)),
      source: z.string().min(1).max(1000),
      files: z.array(z.strictObject({ name: z.string().min(1).max(1000), base64: z.string().max(2 * KEPT_FILE_MAX_BYTES) })).max(KEPT_FILES_MAX).optional(),
    }),
    response: LibraryRef,
  },
  'library:rename': { request: z.strictObject({ id: Id, name: z.string().min(1).max(200) }), response: LibraryRef },
  /** Refused (LS_ERR_SCENARIO_CONFLICT) while runs refer to it, unless force. */
  'library:delete': { request: z.strictObject({ id: Id, force: z.boolean().default(false) }), response: z.object({ deleted: z.boolean(), runs: z.number() }) },
  /** Every saved version, oldest first, with its text and kept files (the editor opens or restores one). */
  'library:versions': {
    request: z.strictObject({ id: Id }),
    response: z.array(z.object({ version: z.number(), savedAt: z.string(), runs: z.number(), text: z.string(), files: z.array(KeptFile).optional() })),
  },
  'runs:scenario': { request: z.strictObject({ runId: Id }), response: RunScenarioSource },
  ...keptFileCalls,
} as const;
