import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rootPath } from '../paths.js';
import { SCENARIO_SCHEMA_FILE, scenarioJsonSchema, scenarioJsonSchemaText } from './json-schema.js';

describe('scenarios/scenario.schema.json', () => {
  it('is the one generated from the zod schema (run `npm run build` to refresh it)', () => {
    expect(readFileSync(rootPath(SCENARIO_SCHEMA_FILE), 'utf8')).toBe(scenarioJsonSchemaText());
  });

  it('describes input: defaulted fields are optional, unknown keys are not allowed', () => {
    const schema = scenarioJsonSchema();
    expect(schema.required).toEqual(['name', 'servers', 'phases']);
    expect(schema.additionalProperties).toBe(false);
  });
});
