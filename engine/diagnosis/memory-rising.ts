import type { Finding } from '../../contract/diagnosis.js';
import { phaseRamp } from '../../contract/phase.js';
import { plannedPhase } from './load-not-as-planned.js';
import { phaseSamples } from './phase-samples.js';
import { phaseCases, type DiagnosisRule } from './stored-run.js';

// The target's memory rose steadily through a steady phase: a leak, or a cache or queue without a
// bound. Judged by a least-squares line through the phase's rss samples, not by first vs last (one
// GC or one warm-up step would decide that): the line must explain most of the samples' spread
// (STEADY_FIT) and rise by a real amount, both absolute and against where it started. A phase that
// ramps its load is left out: memory following the load up is no leak.

/** Samples (500 ms each) a phase needs for its line: three seconds, so a start-up step cannot make a slope on its own. */
export const MIN_SAMPLES = 6;
/** R² of the line at or above which the rise is steady: most of the samples' spread is the slope, not GC or a step. */
export const STEADY_FIT = 0.8;
/** The line's rise over the phase (bytes) below which nothing is said: a few MB is buffers and heap warming up. */
export const MIN_RISE_BYTES = 16 * 1024 * 1024;
/** The rise over the phase / the line's rss at the phase's start at or above which it is more than warming up: a fifth more memory in one phase. */
export const MIN_RISE_SHARE = 0.2;
/** The slope's t statistic (slope / its standard error) at or above which the finding is said with high confidence, with at least twice MIN_SAMPLES samples. */
export const SURE_T = 10;

interface Line { slope: number; intercept: number; r2: number; t: number }

/** Least squares of y on x; null when the x do not spread. */
function fitLine(xs: readonly number[], ys: readonly number[]): Line | null {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i]! - mx) ** 2;
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    syy += (ys[i]! - my) ** 2;
  }
  if (!(sxx > 0)) return null;
  const slope = sxy / sxx;
  const residual = Math.max(0, syy - slope * sxy);
  const r2 = syy > 0 ? 1 - residual / syy : 0;
  const se = Math.sqrt(residual / Math.max(1, n - 2) / sxx);
  return { slope, intercept: my - slope * mx, r2, t: se > 0 ? slope / se : Number.POSITIVE_INFINITY };
}

const MB = 1024 * 1024;

export const memoryRising: DiagnosisRule = {
  id: 'memory-rising',
  kind: 'finding',
  about: {
    summary: "the target's memory (rss of its process tree) rose steadily through a steady phase: a line fitted through its samples rises by a real amount and explains most of their spread (a leak, or a cache or queue without a bound)",
    thresholds: [
      { name: 'MIN_SAMPLES', value: MIN_SAMPLES, why: 'rss samples (500 ms each) a phase needs for its line: three seconds, so a start-up step cannot make a slope on its own' },
      { name: 'STEADY_FIT', value: STEADY_FIT, why: "the line's R² at or above it: the rise is steady, not one GC or one step" },
      { name: 'MIN_RISE_BYTES', value: MIN_RISE_BYTES, why: "the line's rise over the phase (bytes) at or above it: a few MB is buffers and heap warming up" },
      { name: 'MIN_RISE_SHARE', value: MIN_RISE_SHARE, why: "the rise / the line's rss at the phase's start at or above it: a fifth more memory in one phase is more than warming up" },
      { name: 'SURE_T', value: SURE_T, why: "the slope / its standard error at or above it, with at least twice MIN_SAMPLES samples: said with high confidence (else medium)" },
    ],
    blindSpots: ['only servers Loadscope started are sampled: an external target has no rss, silent', 'a leak slower than MIN_RISE_BYTES per phase (a long soak) is not seen in one short phase', "rss counts memory the runtime keeps but no longer uses (a heap grown and not given back): a heap settling at a higher size over a phase reads as rising", 'a phase whose plan is not stored with the run (a matrix over phases) is judged as steady, ramp or not'],
  },
  check(stored) {
    return phaseCases(stored).flatMap((c): Finding[] => {
      const planned = plannedPhase(stored.run, c.phase.index);
      if (planned !== null && phaseRamp(planned) !== undefined) return [];
      // a sample read as the tree changed (NaN, Infinity, 0) is left out, the others judged
      const samples = phaseSamples(stored, c).filter((s) => Number.isFinite(s.rssBytes) && s.rssBytes > 0);
      if (samples.length < MIN_SAMPLES) return [];
      const xs = samples.map((s) => s.tMs / 1000);
      const line = fitLine(xs, samples.map((s) => s.rssBytes));
      if (line === null) return [];
      const from = xs[0]!;
      const to = xs[xs.length - 1]!;
      const start = line.intercept + line.slope * from;
      const rise = line.slope * (to - from);
      if (!(start > 0) || rise < MIN_RISE_BYTES || rise / start < MIN_RISE_SHARE || line.r2 < STEADY_FIT) return [];
      const sure = line.t >= SURE_T && samples.length >= 2 * MIN_SAMPLES;
      return [{
        rule: 'memory-rising',
        kind: 'finding',
        text: `the target's memory rose steadily through the phase: about ${(line.slope / MB).toFixed(1)} MB/s, ${Math.round(rise / MB)} MB (${Math.round((rise / start) * 100)} %) over ${(to - from).toFixed(1)} s at a steady load: a leak, or a cache or queue without a bound`,
        evidence: { ...c.place, figures: [
          { name: 'rss slope', value: line.slope / MB, unit: 'MB/s' },
          { name: 'rss rise over the phase (fitted)', value: rise / MB, unit: 'MB' },
          { name: 'rss at the phase start (fitted)', value: start / MB, unit: 'MB' },
          { name: 'fit R²', value: line.r2, unit: '' },
          { name: 'samples', value: samples.length, unit: 'samples' },
        ] },
        confidence: sure ? 'high' : 'medium',
        wouldChange: `a longer steady phase (a soak of minutes): a leak keeps rising at the same slope, a heap warming up levels off${sure ? '' : `; ${2 * MIN_SAMPLES} samples or more and a steadier line make it sure`}`,
        next: "take two heap snapshots of the target a minute apart under the same load and compare what grew (or look for a cache, a map or a queue without a bound)",
      }];
    });
  },
};
