import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rootPath } from '../paths.js';
import { validateScenarioText } from './index.js';

// Property tests: random and mutated scenarios through validation, in-process. None may throw or
// hang; each rejection names a path and a reason, and each acceptance is checked independently: the
// input (and the scenario as it will run) must satisfy the published JSON Schema, read with ajv, so a
// validator that waved garbage through fails here. 10,000+ inputs in all (the counts below), seeded
// so a failure reproduces; fast-check prints the seed and the shrunk counterexample.

const scenarioFiles = [
  ...readdirSync(rootPath('scenarios')).filter((f) => f.endsWith('.json') && f !== 'scenario.schema.json').map((f) => rootPath(`scenarios/${f}`)),
  ...readdirSync(rootPath('scenarios/examples')).filter((f) => f.endsWith('.json')).map((f) => rootPath(`scenarios/examples/${f}`)),
];
const seeds = scenarioFiles.map((f) => readFileSync(f, 'utf8'));
const seedValues = seeds.map((t) => JSON.parse(t) as unknown);

// the published file, not the zod schema the validator itself uses: an independent reading
const ajv = new Ajv2020({ strict: false, allErrors: true });
// zod names its startsWith check as this format; the pattern beside it holds the rule itself
ajv.addFormat('starts_with', true);
const schemaValid = ajv.compile(JSON.parse(readFileSync(rootPath('scenarios/scenario.schema.json'), 'utf8')) as object);
const schemaErrors = () => JSON.stringify(schemaValid.errors?.slice(0, 3));

/** How many inputs each property saw accepted and refused (each property must see both). */
const tally = { accepted: 0, refused: 0 };
const resetTally = () => Object.assign(tally, { accepted: 0, refused: 0 });

function checkAnswer(text: string): void {
  const result = validateScenarioText(text);
  if (result.ok) {
    tally.accepted++;
    // an accepted text is a JSON object the published schema accepts, and so is what will run
    const input: unknown = JSON.parse(text);
    expect(schemaValid(input), `accepted, but the schema refuses the input: ${schemaErrors()}\n${text.slice(0, 400)}`).toBe(true);
    expect(schemaValid(result.scenario), `accepted, but the schema refuses the prepared scenario: ${schemaErrors()}`).toBe(true);
    return;
  }
  tally.refused++;
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
    resetTally();
    // near-valid scenarios (each field valid 4 times in 5), so that a good share is accepted and the
    // schema check above has work
    const mostly = <T,>(valid: fc.Arbitrary<T>, ...bad: T[]) => fc.oneof({ arbitrary: valid, weight: 4 }, { arbitrary: fc.constantFrom(...bad), weight: 1 });
    const requests = fc.array(fc.record({ path: mostly(fc.constantFrom('/', '/fib?n=5', '/sleep?ms=1'), 'fib', ''), method: mostly(fc.constantFrom('GET', 'POST'), 'get', 'TRACE ') }, { requiredKeys: ['path'] }), { minLength: 1, maxLength: 2 });
    const plausible = fc.record(
      {
        name: mostly(fc.constant('ok-name'), 'Bad Name', ''),
        servers: fc.array(fc.record({ architecture: mostly(fc.constantFrom('single', 'cluster', 'thread-pool', 'offload'), 'nope'), label: mostly(fc.string({ minLength: 1, maxLength: 6 }), ''), cores: mostly(fc.integer({ min: 1, max: 3 }), 0, 1.5) }, { requiredKeys: ['architecture'] }), { minLength: 1, maxLength: 3 }),
        phases: fc.array(
          fc.oneof(
            fc.record({ executor: fc.constant('burst'), count: mostly(fc.integer({ min: 1, max: 50 }), 0, -1), requests }),
            fc.record({ executor: fc.constant('rate'), rate: mostly(fc.integer({ min: 1, max: 100 }), 0), durationMs: mostly(fc.integer({ min: 100, max: 5000 }), 0), requests }),
            fc.record({ executor: fc.constant('closed'), users: mostly(fc.integer({ min: 1, max: 8 }), 0), durationMs: mostly(fc.integer({ min: 100, max: 5000 }), -5), requests }),
          ),
          { minLength: 1, maxLength: 3 },
        ),
      },
      { requiredKeys: ['name', 'servers', 'phases'] },
    );
    fc.assert(fc.property(fc.oneof(fc.jsonValue(), shaped, plausible), (value) => checkAnswer(JSON.stringify(value) ?? 'null')), { numRuns: 4000, seed: 12 });
    // the generator reaches both sides of the validator (a property that only ever saw refusals would check nothing about acceptance)
    expect(tally.accepted).toBeGreaterThan(0);
    expect(tally.refused).toBeGreaterThan(0);
  });

  it('structural mutations of every built-in and example scenario: 4,000', () => {
    const arb = fc.integer({ min: 0, max: seedValues.length - 1 }).chain((i) => {
      const all = paths(seedValues[i]);
      return fc.tuple(fc.constant(i), fc.constantFrom(...all), fc.constantFrom<Mutation>('replace', 'delete', 'wrap', 'duplicate'), leaf);
    });
    resetTally();
    fc.assert(fc.property(arb, ([i, path, how, value]) => checkAnswer(JSON.stringify(mutate(seedValues[i], path, how, value)))), { numRuns: 4000, seed: 34 });
    expect(tally.accepted).toBeGreaterThan(0);
    expect(tally.refused).toBeGreaterThan(0);
  });

  it('byte-level mutations of the scenario texts (insert, delete, truncate): 2,500', () => {
    const arb = fc.tuple(fc.integer({ min: 0, max: seeds.length - 1 }), fc.nat(), fc.nat({ max: 40 }), fc.string({ maxLength: 6, unit: 'binary' }));
    resetTally();
    fc.assert(
      fc.property(arb, ([i, at, drop, insert]) => {
        const text = seeds[i]!;
        const pos = at % (text.length + 1);
        checkAnswer(text.slice(0, pos) + insert + text.slice(pos + drop));
      }),
      { numRuns: 2500, seed: 56 },
    );
    expect(tally.accepted).toBeGreaterThan(0);
    expect(tally.refused).toBeGreaterThan(0);
  });
});
