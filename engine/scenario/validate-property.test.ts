import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rootPath } from '../paths.js';
import { validateScenarioText } from './index.js';

// Property tests: random and mutated scenarios through validation, in-process. None may throw or
// hang; each rejection names a path and a reason. 10,000+ inputs in all (the counts below), seeded
// so a failure reproduces; fast-check prints the seed and the shrunk counterexample.

const scenarioFiles = [
  ...readdirSync(rootPath('scenarios')).filter((f) => f.endsWith('.json') && f !== 'scenario.schema.json').map((f) => rootPath(`scenarios/${f}`)),
  ...readdirSync(rootPath('scenarios/examples')).map((f) => rootPath(`scenarios/examples/${f}`)),
];
const seeds = scenarioFiles.map((f) => readFileSync(f, 'utf8'));
const seedValues = seeds.map((t) => JSON.parse(t) as unknown);

function checkAnswer(text: string): void {
  const result = validateScenarioText(text);
  if (result.ok) return;
  expect(result.issues.length).toBeGreaterThan(0);
  for (const issue of result.issues) {
    expect(typeof issue.path === 'string' && issue.path.length > 0, JSON.stringify(issue)).toBe(true);
    expect(typeof issue.message === 'string' && issue.message.length > 0, JSON.stringify(issue)).toBe(true);
  }
}

type Path = (string | number)[];
function paths(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...at, i], out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) paths(v, [...at, k], out);
  return out;
}
type Mutation = 'replace' | 'delete' | 'wrap' | 'duplicate';
function mutate(root: unknown, path: Path, how: Mutation, replacement: unknown): unknown {
  if (path.length === 0) return how === 'wrap' ? [root] : replacement;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (how === 'replace') parent[last] = replacement;
  else if (how === 'wrap') parent[last] = [parent[last]];
  else if (how === 'duplicate' && Array.isArray(parent)) parent.splice(Number(last), 0, structuredClone(parent[last]));
  else if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete parent[last];
  return copy;
}

const leaf = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom('', '/', 'http://127.0.0.1:1@10.0.0.1/', 'external', 'burst', 'rate', -1, 0, 1e308, 2 ** 53, '__proto__', 'constructor'),
  fc.integer({ min: -5, max: 100_000 }),
);

describe('scenario validation under random input', () => {
  it('random JSON values and scenario-shaped objects: 4,000', () => {
    const shaped = fc.record(
      {
        name: fc.oneof(fc.string(), fc.constant('ok-name')),
        schemaVersion: leaf,
        servers: fc.array(fc.record({ architecture: fc.oneof(fc.constantFrom('single', 'cluster', 'external', 'offload'), fc.string()), url: leaf, options: leaf }, { requiredKeys: ['architecture'] }), { maxLength: 4 }),
        phases: fc.array(fc.record({ executor: fc.constantFrom('burst', 'closed', 'rate', 'sequential', 'x'), count: leaf, rate: leaf, users: leaf, durationMs: leaf, requests: fc.array(fc.record({ path: leaf, method: leaf, body: leaf }), { maxLength: 3 }) }, { requiredKeys: ['executor'] }), { maxLength: 3 }),
        matrix: fc.dictionary(fc.oneof(fc.constantFrom('phases[0].count', 'servers', 'servers[0].options.workers', 'phases[0].rate'), fc.string()), fc.array(leaf, { maxLength: 4 }), { maxKeys: 3 }),
        quick: leaf,
      },
      { requiredKeys: [] },
    );
    fc.assert(fc.property(fc.oneof(fc.jsonValue(), shaped), (value) => checkAnswer(JSON.stringify(value) ?? 'null')), { numRuns: 4000, seed: 12 });
  });

  it('structural mutations of every built-in and example scenario: 4,000', () => {
    const arb = fc.integer({ min: 0, max: seedValues.length - 1 }).chain((i) => {
      const all = paths(seedValues[i]);
      return fc.tuple(fc.constant(i), fc.constantFrom(...all), fc.constantFrom<Mutation>('replace', 'delete', 'wrap', 'duplicate'), leaf);
    });
    fc.assert(fc.property(arb, ([i, path, how, value]) => checkAnswer(JSON.stringify(mutate(seedValues[i], path, how, value)))), { numRuns: 4000, seed: 34 });
  });

  it('byte-level mutations of the scenario texts (insert, delete, truncate): 2,500', () => {
    const arb = fc.tuple(fc.integer({ min: 0, max: seeds.length - 1 }), fc.nat(), fc.nat({ max: 40 }), fc.string({ maxLength: 6, unit: 'binary' }));
    fc.assert(
      fc.property(arb, ([i, at, drop, insert]) => {
        const text = seeds[i]!;
        const pos = at % (text.length + 1);
        checkAnswer(text.slice(0, pos) + insert + text.slice(pos + drop));
      }),
      { numRuns: 2500, seed: 56 },
    );
  });
});
