import { z } from 'zod';
import { LoadscopeError } from '../../contract/errors.js';
import { BUNDLE_MAX_CHARS, KEPT_FILES_MAX } from '../../contract/kept-files.js';
import { MAX_NESTING_DEPTH, nestingOverflow } from '../scenario/limits.js';
import { parseScenarioText } from '../scenario/parse-text.js';

// A scenario exported with its data files: one JSON document a person can read and diff, so a
// library scenario (or a file on disk with the CSV beside it) travels as one file and is imported
// elsewhere whole (`library:import` knows it from a plain scenario by its first key). Files are
// text (a kept file is UTF-8 by rule), so the document holds them as JSON strings.
//
//   { "loadscopeBundle": 1, "scenario": { ...the scenario... }, "files": [{ "name": "users.csv", "text": "id,name\n..." }] }

const BUNDLE_VERSION = 1;

const Bundle = z.strictObject({
  loadscopeBundle: z.literal(BUNDLE_VERSION),
  scenario: z.record(z.string(), z.unknown()),
  files: z.array(z.strictObject({ name: z.string().min(1).max(1000), text: z.string() })).max(KEPT_FILES_MAX),
});

export interface BundleParts {
  /** the scenario's JSON text */
  text: string;
  files: { name: string; content: Buffer }[];
}

/** The bundle of a scenario's text and its kept files' contents. */
export function writeBundle(text: string, files: readonly { name: string; content: Buffer }[]): string {
  const scenario = parseScenarioText(text, 'the scenario');
  const bundle = { loadscopeBundle: BUNDLE_VERSION, scenario, files: files.map((f) => ({ name: f.name, text: f.content.toString('utf8') })) };
  return `${JSON.stringify(bundle, null, 2)}\n`;
}

/** Whether `text` is meant as a bundle (its first key), before anything else is read. */
export function looksLikeBundle(text: string): boolean {
  return /^\s*\{\s*"loadscopeBundle"\s*:/.test(text);
}

/**
 * A bundle's scenario text and files, or a one-line refusal naming `source`: too big, nested too
 * deep, not JSON, or not a bundle's shape. No byte of a file is quoted (they may hold credentials).
 */
export function readBundle(text: string, source: string): BundleParts {
  const refuse = (why: string) => new LoadscopeError('LS_ERR_SCENARIO_INVALID', `${source}: ${why}`);
  if (text.length > BUNDLE_MAX_CHARS) throw refuse(`the bundle is ${text.length} characters; one may have at most ${BUNDLE_MAX_CHARS}`);
  if (nestingOverflow(text, MAX_NESTING_DEPTH + 2) >= 0) throw refuse(`the bundle nests deeper than ${MAX_NESTING_DEPTH} arrays and objects`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // V8's message quotes the text
    throw refuse('the bundle is not JSON');
  }
  const parsed = Bundle.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw refuse(`not a scenario bundle: ${first ? `${first.path.map(String).join('.') || '(root)'}: ${first.message}` : 'its shape is wrong'}`);
  }
  return {
    text: `${JSON.stringify(parsed.data.scenario, null, 2)}\n`,
    files: parsed.data.files.map((f) => ({ name: f.name, content: Buffer.from(f.text, 'utf8') })),
  };
}
