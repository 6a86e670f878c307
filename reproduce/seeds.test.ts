import { describe, expect, it } from 'vitest';
import { checksFor } from './expectations.js';
import { SEED_SCENARIO_NAMES, selectSeedScenarios } from './seeds.js';
import { writeupFigures } from './writeup-figures.js';

describe('the seed catalog', () => {
  it('selects by seed id, prefix or scenario name, in run order', () => {
    expect(selectSeedScenarios(undefined)).toEqual(SEED_SCENARIO_NAMES);
    expect(selectSeedScenarios(['000'])).toEqual(['seed-000-late-requests', 'seed-000-image', 'seed-000-image-200']);
    expect(selectSeedScenarios(['seed-000-image', '002'])).toEqual(['seed-002-sequential', 'seed-000-image']);
    expect(selectSeedScenarios(['seed-003'])).toEqual(['seed-003-threads', 'seed-003-delays', 'seed-003-buckets']);
    expect(selectSeedScenarios(['9'])).toEqual([]);
  });

  it("has the write-up's figures and shape checks for every scenario", () => {
    for (const name of SEED_SCENARIO_NAMES) {
      const figures = writeupFigures(name);
      expect(figures.tables.length + figures.notes.length, name).toBeGreaterThan(0);
      expect(checksFor(name).length, name).toBeGreaterThan(0);
    }
  });

  it("holds the issue's required shapes", () => {
    const required = SEED_SCENARIO_NAMES.flatMap((n) => checksFor(n).filter((c) => c.required).map((c) => c.id));
    expect(required.sort()).toEqual(['000-late-total', '000-late-wait', '002-two-clients', '004-round-robin']);
  });
});
