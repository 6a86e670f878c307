import { isDropped, requestOfPoint, type K6Dropped } from './k6-request.js';
import { TargetAcc } from './k6-accumulator.js';
import { readPoints, type ReadStats } from './read-points.js';

// Pass 1 of an import: every file, one point at a time, into per-server-run accumulators. Several
// files (k6-operator pods, or the segments of one run) merge by their tags: a pod's points carry the
// same cell, server and phase tags as its siblings', and k6's execution segments make their request
// counts add up. A server run's points come from the Loadscope script's `loadscope_total` where it
// has any (they carry Server-Timing and the native error kinds), else from k6's http_req_duration.

export interface Collected {
  targets: TargetAcc[];
  stats: ReadStats;
  /** the scenario name the script carried (tag ls_scenario), if any */
  scenarioName: string | null;
  files: number;
}

export const targetKey = (cell: number, server: string) => `${cell}\u0000${server}`;

export async function collectK6(files: readonly string[]): Promise<Collected> {
  const stats: ReadStats = { points: 0, skipped: 0 };
  const bySource = { loadscope: new Map<string, TargetAcc>(), http: new Map<string, TargetAcc>() };
  const dropped: K6Dropped[] = [];
  let scenarioName: string | null = null;
  for (const file of files) {
    for await (const point of readPoints(file, stats)) {
      const r = requestOfPoint(point);
      if (r === null) continue;
      scenarioName ??= point.tags.ls_scenario ?? null;
      if (isDropped(r)) {
        dropped.push(r);
        continue;
      }
      const map = bySource[r.source];
      const key = targetKey(r.cell, r.server);
      let acc = map.get(key);
      if (!acc) map.set(key, (acc = new TargetAcc(r.cell, r.server)));
      acc.add(r);
    }
  }
  const chosen = new Map(bySource.http);
  for (const [key, acc] of bySource.loadscope) chosen.set(key, acc);
  for (const d of dropped) {
    const key = targetKey(d.cell, d.server);
    let acc = chosen.get(key);
    if (!acc) chosen.set(key, (acc = new TargetAcc(d.cell, d.server)));
    acc.phase(d.phase).addDropped(d);
  }
  const targets = [...chosen.values()].sort((a, b) => a.cell - b.cell || a.firstStartUs - b.firstStartUs);
  return { targets, stats, scenarioName, files: files.length };
}
