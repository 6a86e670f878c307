// The Universal Scalability Law (Gunther): throughput at concurrency N is
//
//   X(N) = λ·N / (1 + σ·(N − 1) + κ·N·(N − 1))
//
// λ: throughput of one unit of concurrency, σ: contention (serialised share), κ: coherency (cost of
// keeping units in step, what makes throughput fall past the peak). The peak is at
// N* = sqrt((1 − σ) / κ). Pure functions: the engine, the CLI, the UI and reports fit the same way.
//
// Fit: for a fixed λ the model is linear in (σ, κ) after λ·N/X − 1 = σ·(N − 1) + κ·N·(N − 1), so
// (σ, κ) come from a two-variable least squares (clamped to σ in [0, 1], κ >= 0); λ is found by a
// golden-section search minimising the squared error of X itself (the linearised error overweights
// the points with small X). The error of the parameters is a residual bootstrap with a fixed seed,
// so the same points always give the same interval.

import { seededRandom } from '../prng.js';

export interface UslPoint {
  /** concurrency: users, or requests in flight */
  n: number;
  /** measured throughput (req/s) */
  x: number;
}

export interface UslParams {
  lambda: number;
  sigma: number;
  kappa: number;
}

export interface UslFit extends UslParams {
  /** concurrency of the predicted peak (Infinity when κ = 0: no retrograde region) */
  peakN: number;
  /** predicted throughput at the peak (the asymptote λ/σ when κ = 0 and σ > 0) */
  peakX: number;
  /** root mean square error of X over the points (req/s) */
  rmse: number;
  /** coefficient of determination of X */
  r2: number;
  /** 95 % residual-bootstrap intervals */
  interval: { sigma: [number, number]; kappa: [number, number]; peakN: [number, number]; peakX: [number, number] };
  points: number;
}

export const uslThroughput = (p: UslParams, n: number): number => (p.lambda * n) / (1 + p.sigma * (n - 1) + p.kappa * n * (n - 1));

function peakOf(p: UslParams): { peakN: number; peakX: number } {
  if (p.kappa <= 0) return { peakN: Infinity, peakX: p.sigma > 0 ? p.lambda / p.sigma : Infinity };
  const peakN = Math.sqrt((1 - p.sigma) / p.kappa);
  return { peakN, peakX: uslThroughput(p, peakN) };
}

const sse = (pts: readonly UslPoint[], p: UslParams) => pts.reduce((s, q) => s + (q.x - uslThroughput(p, q.n)) ** 2, 0);

/** σ and κ for a fixed λ: least squares of λN/X − 1 on (N − 1, N(N − 1)) through the origin, clamped. */
function contentionFor(pts: readonly UslPoint[], lambda: number): UslParams {
  let a11 = 0, a12 = 0, a22 = 0, b1 = 0, b2 = 0;
  for (const { n, x } of pts) {
    const y = (lambda * n) / x - 1;
    const u = n - 1;
    const v = n * (n - 1);
    a11 += u * u; a12 += u * v; a22 += v * v; b1 += u * y; b2 += v * y;
  }
  const det = a11 * a22 - a12 * a12;
  let sigma = det > 0 ? (b1 * a22 - b2 * a12) / det : a11 > 0 ? b1 / a11 : 0;
  let kappa = det > 0 ? (a11 * b2 - a12 * b1) / det : 0;
  // outside the feasible region the best point lies on a boundary: refit the other parameter alone
  if (kappa < 0) { kappa = 0; sigma = a11 > 0 ? b1 / a11 : 0; }
  if (sigma < 0) { sigma = 0; kappa = a22 > 0 ? Math.max(0, b2 / a22) : 0; }
  if (sigma > 1) sigma = 1;
  return { lambda, sigma, kappa };
}

function fitParams(pts: readonly UslPoint[]): UslParams {
  // λ is at least the best per-unit throughput seen (σ, κ >= 0 only lower X/N) and rarely far above it
  const perUnit = Math.max(...pts.map((p) => p.x / p.n));
  let lo = perUnit * 0.999, hi = perUnit * 4;
  const g = (Math.sqrt(5) - 1) / 2;
  const cost = (l: number) => sse(pts, contentionFor(pts, l));
  let c = hi - g * (hi - lo), d = lo + g * (hi - lo);
  let fc = cost(c), fd = cost(d);
  for (let i = 0; i < 100 && hi - lo > perUnit * 1e-9; i++) {
    if (fc < fd) { hi = d; d = c; fd = fc; c = hi - g * (hi - lo); fc = cost(c); }
    else { lo = c; c = d; fc = fd; d = lo + g * (hi - lo); fd = cost(d); }
  }
  return contentionFor(pts, (lo + hi) / 2);
}


const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
const range95 = (xs: number[]): [number, number] => {
  const s = xs.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  return s.length === 0 ? [NaN, NaN] : [quantile(s, 0.025), quantile(s, 0.975)];
};

export class UslFitError extends Error {}

/**
 * Below this R² the fit explains too little of the measured throughput to predict from: the views
 * draw no curve and grey its figures, saying why. 0.8: a fit that leaves a fifth of the variance
 * unexplained on a handful of steps has a peak that moves with any one step.
 */
export const USL_MIN_R2 = 0.8;

/** Whether a fit is good enough to draw and to predict a peak from. */
export const uslTrusted = (fit: Pick<UslFit, 'r2'>): boolean => fit.r2 >= USL_MIN_R2;

/** Why a fit is not drawn, or null when it is trusted. */
export const uslPoorNote = (fit: Pick<UslFit, 'r2'>): string | null =>
  uslTrusted(fit) ? null : `poor fit (R² ${Number(fit.r2.toPrecision(2))} below ${USL_MIN_R2}): no curve drawn, its σ, κ and peak predict nothing`;

/**
 * Fits the USL to measured (concurrency, throughput) points. Needs at least three distinct
 * concurrencies with positive throughput; otherwise throws UslFitError saying what is missing.
 */
export function fitUsl(points: readonly UslPoint[], resamples = 200): UslFit {
  const pts = points.filter((p) => Number.isFinite(p.n) && Number.isFinite(p.x) && p.n > 0 && p.x > 0);
  if (new Set(pts.map((p) => p.n)).size < 3) throw new UslFitError(`a scalability fit needs throughput at 3 or more concurrencies; got ${new Set(pts.map((p) => p.n)).size}`);
  const best = fitParams(pts);
  const fitted = pts.map((p) => uslThroughput(best, p.n));
  const residuals = pts.map((p, i) => p.x - fitted[i]!);
  const mean = pts.reduce((s, p) => s + p.x, 0) / pts.length;
  const ssTot = pts.reduce((s, p) => s + (p.x - mean) ** 2, 0);
  const ssRes = residuals.reduce((s, r) => s + r * r, 0);
  // seeded: the bootstrap gives the same interval every time
  const rand = seededRandom(0x5eed);
  const boot: { sigma: number[]; kappa: number[]; peakN: number[]; peakX: number[] } = { sigma: [], kappa: [], peakN: [], peakX: [] };
  for (let b = 0; b < resamples; b++) {
    const sample = pts.map((p, i) => ({ n: p.n, x: Math.max(fitted[i]! * 1e-6, fitted[i]! + residuals[Math.floor(rand() * residuals.length)]!) }));
    const q = fitParams(sample);
    const pk = peakOf(q);
    boot.sigma.push(q.sigma); boot.kappa.push(q.kappa); boot.peakN.push(pk.peakN); boot.peakX.push(pk.peakX);
  }
  return {
    ...best,
    ...peakOf(best),
    rmse: Math.sqrt(ssRes / pts.length),
    r2: ssTot > 0 ? 1 - ssRes / ssTot : 1,
    interval: { sigma: range95(boot.sigma), kappa: range95(boot.kappa), peakN: range95(boot.peakN), peakX: range95(boot.peakX) },
    points: pts.length,
  };
}
