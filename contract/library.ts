import { z } from 'zod';

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
});
export type RunScenarioSource = z.infer<typeof RunScenarioSource>;

export const libraryCalls = {
  /** Saves text as a new scenario (no id) or a new version of one; a rename when its name changed. */
  'library:save': { request: z.strictObject({ id: Id.optional(), text: z.string().min(1).max(2_000_000) }), response: LibraryRef },
  /** A scenario from a JSON file's text; `source` (the file's name or path) names it in errors. */
  'library:import': { request: z.strictObject({ text: z.string().max(2_000_000), source: z.string().min(1).max(1000) }), response: LibraryRef },
  'library:rename': { request: z.strictObject({ id: Id, name: z.string().min(1).max(200) }), response: LibraryRef },
  /** Refused (LS_ERR_SCENARIO_CONFLICT) while runs refer to it, unless force. */
  'library:delete': { request: z.strictObject({ id: Id, force: z.boolean().default(false) }), response: z.object({ deleted: z.boolean(), runs: z.number() }) },
  /** Every saved version, oldest first, with its text (the editor opens or restores one). */
  'library:versions': {
    request: z.strictObject({ id: Id }),
    response: z.array(z.object({ version: z.number(), savedAt: z.string(), runs: z.number(), text: z.string() })),
  },
  'runs:scenario': { request: z.strictObject({ runId: Id }), response: RunScenarioSource },
} as const;
