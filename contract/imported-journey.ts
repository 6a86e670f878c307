import { z } from 'zod';
import { KeptFile } from './kept-files.js';

// What a HAR or curl import answers (issue 39): the scenario, what it left out or moved, and each
// correlation it proposes with a preview, so a person accepts all or one by one before the journey
// opens. The engine makes it (engine/import-requests/); the CLI prints it, the UI shows it.

/** Correlation proposals a person may accept: 'all', 'none' or their ids ("c1", "c2"). */
export const CorrelateChoice = z.union([z.enum(['all', 'none']), z.array(z.string().regex(/^c\d{1,4}$/)).max(256)]);
export type CorrelateChoice = z.infer<typeof CorrelateChoice>;

export const CorrelationProposal = z.object({
  id: z.string(),
  /** the variable: {{vars.<var>}} */
  var: z.string(),
  /** the recorded value, cut to a few characters (its length beside) */
  value: z.string(),
  chars: z.number(),
  /** the step that received it and where in its response */
  from: z.object({ step: z.number(), name: z.string(), where: z.string() }),
  /** every place it replaces: the step, the field's JSON path in the scenario, and the field as sent around the placeholder (credentials already moved out) */
  uses: z.array(z.object({ step: z.number(), name: z.string(), field: z.string(), shows: z.string() })),
  accepted: z.boolean(),
});
export type CorrelationProposal = z.infer<typeof CorrelationProposal>;

export const ImportedJourney = z.object({
  /** the scenario, validated, as JSON text */
  text: z.string(),
  /** one line each: what was left out, moved or needs doing */
  notes: z.array(z.string()),
  proposals: z.array(CorrelationProposal),
  /** the credentials moved out of the text: the data file the scenario names and its columns (never the values) */
  credentials: z.object({ file: z.string(), columns: z.array(z.string()) }).nullable(),
  /** the UI's import, kept: the credentials file kept as an editor's upload is (the draft keeps it); a preview: none */
  files: z.array(KeptFile),
});
export type ImportedJourney = z.infer<typeof ImportedJourney>;
