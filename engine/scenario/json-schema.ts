import { z } from 'zod';
import { Scenario } from '../../contract/scenario.js';
import { isPlainObject } from './param-path.js';

// The published JSON Schema of the scenario format, generated from the zod schema (the one source of
// truth). `io: 'input'` describes what a file may contain, so defaulted fields are optional.

export const SCENARIO_SCHEMA_FILE = 'scenarios/scenario.schema.json';

type JsonSchema = Record<string, unknown>;
let cached: JsonSchema | undefined;

export function scenarioJsonSchema(): JsonSchema {
  if (!cached) {
    const generated: JsonSchema = z.toJSONSchema(Scenario, { io: 'input' });
    cached = {
      ...generated,
      title: 'Loadscope scenario',
      description: 'A Loadscope load scenario. Generated from contract/scenario.ts: do not edit by hand.',
    };
  }
  return cached;
}

/** The exact text of scenarios/scenario.schema.json. */
export function scenarioJsonSchemaText(): string {
  return JSON.stringify(scenarioJsonSchema(), null, 2) + '\n';
}

/**
 * The property names an object at `path` may have, found by walking the JSON Schema alongside the
 * input (union branches whose `const` properties contradict the input are left out). Used for
 * "did you mean" hints on unknown keys.
 */
export function knownKeysAt(input: unknown, path: ReadonlyArray<PropertyKey>): string[] {
  const root = scenarioJsonSchema();
  let nodes = expand(root, input, root);
  let value = input;
  for (const step of path) {
    value = isPlainObject(value) || Array.isArray(value) ? (value as Record<PropertyKey, unknown>)[step as string] : undefined;
    const next: JsonSchema[] = [];
    for (const n of nodes) {
      let child: unknown;
      if (typeof step === 'number') child = n.items;
      else if (isPlainObject(n.properties) && Object.hasOwn(n.properties, String(step))) child = n.properties[String(step)];
      else child = n.additionalProperties;
      if (isPlainObject(child)) next.push(...expand(child, value, root));
    }
    nodes = next;
  }
  const keys = new Set<string>();
  for (const n of nodes) if (isPlainObject(n.properties)) for (const k of Object.keys(n.properties)) keys.add(k);
  return [...keys];
}

function expand(node: JsonSchema, value: unknown, root: JsonSchema): JsonSchema[] {
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
    let target: unknown = root;
    for (const part of node.$ref.slice(2).split('/')) target = isPlainObject(target) ? target[part] : undefined;
    return isPlainObject(target) ? expand(target, value, root) : [];
  }
  const branches = [node.anyOf, node.oneOf, node.allOf].find(Array.isArray);
  if (!branches) return contradicts(node, value) ? [] : [node];
  const out: JsonSchema[] = [];
  for (const b of branches as unknown[]) if (isPlainObject(b)) out.push(...expand(b, value, root));
  return out;
}

function contradicts(node: JsonSchema, value: unknown): boolean {
  if (!isPlainObject(node.properties) || !isPlainObject(value)) return false;
  return Object.entries(node.properties).some(
    ([k, p]) => isPlainObject(p) && 'const' in p && Object.hasOwn(value, k) && value[k] !== p.const,
  );
}
