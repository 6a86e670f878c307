import { BaseSequencer } from 'vitest/node';

// The order files start in (vitest.config.ts). With files side by side, the suite ends when its
// last file does: a file of minutes started last keeps one worker busy while the others stand idle.
// vitest starts the longest first only from its cache of earlier runs; a clean clone (CI) has none,
// and then it starts the largest files first, which puts these short-to-read, long-to-run files
// near the end. So they start first, in this order, and vitest orders the rest as it would.
// Measured with `vitest run --reporter=json` (docs/ci.md, "The suite's own time"): each holds a
// whole run, or many, of its own.
const LONG_FILES = [
  'reproduce/seeds-quick.test.ts',
  'cli/readme-tour.test.ts',
  'cli/compare-endpoints.test.ts',
  'engine/diagnosis/diagnosis-ground-truth.test.ts',
  'cli/cli-baseline.test.ts',
  'engine/run/faults.test.ts',
  'servers/architectures.test.ts',
  'engine/run/capacity.test.ts',
  'e2e/capacity.test.ts',
];

export default class LongFilesFirst extends BaseSequencer {
  async sort(files) {
    const sorted = await super.sort(files);
    const rank = (spec) => {
      const at = LONG_FILES.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return at < 0 ? LONG_FILES.length : at;
    };
    // a stable sort: the rest keep vitest's own order
    return sorted.map((spec, i) => ({ spec, i, rank: rank(spec) })).sort((a, b) => a.rank - b.rank || a.i - b.i).map((x) => x.spec);
  }
}
