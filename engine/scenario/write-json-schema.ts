import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rootPath } from '../paths.js';
import { SCENARIO_SCHEMA_FILE, scenarioJsonSchemaText } from './json-schema.js';

// Writes scenarios/scenario.schema.json from the zod schema. scripts/build.mjs runs the compiled
// form after tsc, and a test checks the committed file equals what this writes.

export function writeScenarioJsonSchema(): string {
  const path = rootPath(SCENARIO_SCHEMA_FILE);
  writeFileSync(path, scenarioJsonSchemaText());
  return path;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeScenarioJsonSchema();
}
