import { basename } from 'node:path';
import { LoadscopeError } from '../../../contract/errors.js';
import { MAX_NAME_CHARS, MAX_PHASE_RUNS, MAX_TARGETS, refuse } from './import-limits.js';
import { checkOfPoint, isDropped, requestOfPoint, UNKNOWN_SERVER } from './k6-request.js';
import { TargetAcc } from './k6-accumulator.js';
import { readPoints, type ReadStats } from './read-points.js';
import { streamOfPoint } from './k6-stream-point.js';
import { MAX_STORED_INSTANCES } from '../../../contract/instances.js';

// Pass 1 of an import: every file, one point at a time, into per-server-run accumulators. Several
// files (k6-operator pods, or the segments of one run) merge by their tags: a pod's points carry the
// same cell, server and phase tags as its siblings', and k6's execution segments make their request
// counts add up. A server run's points come from the Loadscope script's `loadscope_total` where it
// has any (they carry Server-Timing and the native error kinds), else from k6's http_req_duration.
// Memory is per server run and phase, both counted against stated limits; dropped iterations are
// summed as they come, not kept one by one.

export interface Collected {
  targets: TargetAcc[];
  stats: ReadStats;
  /** the scenario name the script carried (tag ls_scenario), if any */
  scenarioName: string | null;
  files: number;
}

export const targetKey = (cell: number, server: string) => `${cell}\u0000${server}`;

/** Accumulators by server run, counting every (server run, phase) made across maps against the limits. */
class Accs {
  readonly map = new Map<string, TargetAcc>();
  constructor(private readonly count: { targets: number; phases: number }) {}

  get(cell: number, server: string, where: string): TargetAcc {
    const key = targetKey(cell, server);
    let acc = this.map.get(key);
    if (!acc) {
      if (++this.count.targets > MAX_TARGETS) throw tooMany(where, `${MAX_TARGETS} server runs (cell and server tags)`);
      this.map.set(key, (acc = new TargetAcc(cell, server)));
    }
    return acc;
  }

  /** After adding to `acc`: a phase it did not have counts. */
  counted(acc: TargetAcc, phasesBefore: number, where: string): void {
    this.count.phases += acc.phases.size - phasesBefore;
    if (this.count.phases > MAX_PHASE_RUNS) throw tooMany(where, `${MAX_PHASE_RUNS} phases across its server runs`);
  }
}

const tooMany = (where: string, what: string) => new LoadscopeError('LS_ERR_BAD_REQUEST', `${where}: more than ${what} in one import; nothing was stored`);

export interface CollectOptions {
  /**
   * A point without an ls_instance tag counts for its file's instance (the file's index): an
   * import of several k6-operator pods' or processes' files, one file each. A k6 run's own segment
   * files (one process, one after another) leave it off.
   */
  instancePerFile?: boolean;
}

export async function collectK6(files: readonly string[], opts: CollectOptions = {}): Promise<Collected> {
  if (opts.instancePerFile === true && files.length > MAX_STORED_INSTANCES) {
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `${files.length} result files: an import takes at most ${MAX_STORED_INSTANCES} (one per k6 instance); nothing was stored`);
  }
  const stats: ReadStats = { points: 0, skipped: 0 };
  const count = { targets: 0, phases: 0 };
  const bySource = { loadscope: new Accs(count), http: new Accs(count) };
  const dropped = new Accs(count);
  const checked = new Accs(count);
  let scenarioName: string | null = null;
  for (const [fileIndex, file] of files.entries()) {
    const name = basename(file);
    const fileInstance = opts.instancePerFile === true && files.length > 1 ? fileIndex : null;
    for await (const point of readPoints(file, stats)) {
      const c = checkOfPoint(point, name);
      if (c !== null) {
        const acc = checked.get(c.cell, c.server, `${name} line ${point.line ?? '?'}`);
        const before = acc.phases.size;
        acc.phase(c.phase).checks.add(c.endpoint, c.check, c.passed);
        checked.counted(acc, before, `${name} line ${point.line ?? '?'}`);
        continue;
      }
      const m = streamOfPoint(point, name);
      if (m !== null) {
        // a stream's messages count where its requests are: the script's own points
        const where = `${name} line ${point.line ?? '?'}`;
        const acc = bySource.loadscope.get(m.cell, m.server, where);
        const before = acc.phases.size;
        acc.addStream(m);
        bySource.loadscope.counted(acc, before, where);
        continue;
      }
      const r = requestOfPoint(point, name);
      if (r === null) continue;
      const where = `${name} line ${point.line ?? '?'}`;
      const tagged = point.tags.ls_scenario;
      if (tagged !== undefined && tagged.length > MAX_NAME_CHARS) refuse(where, 'tags.ls_scenario', tagged, `at most ${MAX_NAME_CHARS} characters`);
      scenarioName ??= tagged ?? null;
      const accs = isDropped(r) ? dropped : bySource[r.source];
      const acc = accs.get(r.cell, r.server, where);
      const before = acc.phases.size;
      const instance = r.instance ?? fileInstance;
      if (isDropped(r)) {
        acc.phase(r.phase).addDropped(r);
        if (instance !== null) acc.instances.addDropped(instance, r.count);
      } else acc.add(r, instance);
      accs.counted(acc, before, where);
    }
  }
  const chosen = new Map(bySource.http.map);
  for (const [key, acc] of bySource.loadscope.map) chosen.set(key, acc);
  // k6 tags dropped_iterations with their k6 scenario only (no server or cell tag, whatever the
  // script's scenario tags say): where the files hold one server run, they are its own
  const only = chosen.size === 1 ? [...chosen.values()][0]! : undefined;
  for (const [key, d] of dropped.map) {
    let acc = chosen.get(key) ?? (d.server === UNKNOWN_SERVER ? only : undefined);
    if (!acc) chosen.set(key, (acc = new TargetAcc(d.cell, d.server)));
    for (const p of d.phases.values()) acc.phase(p.ref).addDropped({ cell: d.cell, server: d.server, instance: null, phase: p.ref, count: p.dropped });
    acc.instances.takeDropped(d.instances);
  }
  // checks count only where their server run's requests are
  for (const [key, c] of checked.map) {
    const acc = chosen.get(key);
    if (acc) for (const p of c.phases.values()) acc.phase(p.ref).checks.merge(p.checks);
  }
  const targets = [...chosen.values()].sort((a, b) => a.cell - b.cell || a.firstStartUs - b.firstStartUs);
  return { targets, stats, scenarioName, files: files.length };
}
