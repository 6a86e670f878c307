import { isDeepStrictEqual } from 'node:util';
import { expectedRequests, phaseSlots, plannedMs, PLAIN_WORDS } from '../../contract/phase.js';
import type { ScenarioIssue } from '../../contract/scenario.js';
import type { Cell } from './matrix.js';
import { applyQuick } from './overrides.js';
import { formatPath, isPlainObject, parsePath, type PathSegment } from './param-path.js';

// The one owner of "is this run quick": a run is quick only when it was asked AND its scenario has a
// quick profile that changes it. A scenario without one runs (and is stored, labelled, baselined and
// trended) as the full run it is, whatever the toggle or --quick said, in every host.
// Also here: what a profile shortens, in words for the toggle, and issues the profile causes, moved
// onto the profile's own entry (`quick["phases[0].durationMs"]`) instead of the phase it broke.

/** The scenario input's quick profile: a non-empty object of overrides, else null (nothing to apply). */
export function quickProfileOf(input: unknown): Record<string, unknown> | null {
  if (!isPlainObject(input)) return null;
  const quick = input.quick;
  return isPlainObject(quick) && Object.keys(quick).length > 0 ? quick : null;
}

/** Whether applying the profile changes the scenario at all (ui-smoke's once set a duration to its own value). */
function quickChanges(input: Record<string, unknown>): boolean {
  const { quick: _quick, ...full } = input;
  try {
    return !isDeepStrictEqual(applyQuick(input), full);
  } catch {
    return true; // a profile that cannot be applied: applying it says why
  }
}

/**
 * Whether a run asked to be quick is one: only a scenario with a quick profile that changes something
 * can be (a profile that changes nothing would label an identical load quick).
 */
export function quickApplies(input: unknown, asked: boolean): boolean {
  return asked && quickProfileOf(input) !== null && quickChanges(input as Record<string, unknown>);
}

/** Issue paths as steps; an unknown key (reported on its object) counts as a step into it. */
function issueSteps(issue: ScenarioIssue): PathSegment[] | null {
  try {
    const steps = issue.path === '' ? [] : parsePath(issue.path);
    const unknown = /^unknown key ("(?:[^"\\]|\\.)*")/.exec(issue.message);
    if (unknown) steps.push({ kind: 'key', key: JSON.parse(unknown[1]!) as string });
    return steps;
  } catch {
    return null; // a path of another shape (a matrix entry's): no entry is matched
  }
}

const sameStep = (a: PathSegment, b: PathSegment): boolean =>
  a.kind === 'wildcard' || b.kind === 'wildcard' || (a.kind === 'key' ? b.kind === 'key' && a.key === b.key : b.kind === 'index' && a.index === b.index);

/** One path lies within the other (or they are the same): the entry set what the issue is about, or something inside it. */
function overlaps(a: readonly PathSegment[], b: readonly PathSegment[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (!sameStep(a[i]!, b[i]!)) return false;
  return true;
}

/**
 * Issues of a scenario with its quick profile applied, put on the quick entry that caused each (the
 * one whose path overlaps the issue's most closely), else on `quick`: the phase the issue names
 * shows no such field, the profile does.
 */
export function pointAtQuickProfile(quick: Record<string, unknown>, issues: readonly ScenarioIssue[]): ScenarioIssue[] {
  const entries = Object.keys(quick).flatMap((key) => {
    try {
      return [{ key, steps: parsePath(key) }];
    } catch {
      return [];
    }
  });
  return issues.map((issue) => {
    const steps = issueSteps(issue);
    const found = steps === null ? [] : entries.filter((e) => overlaps(e.steps, steps));
    // the closest: the entry whose length is nearest the issue's
    const best = found.sort((a, b) => Math.abs(a.steps.length - steps!.length) - Math.abs(b.steps.length - steps!.length))[0];
    return { path: best === undefined ? 'quick' : formatPath(['quick', best.key]), message: `with the quick profile applied, ${issue.path === '' ? 'the scenario' : issue.path}: ${issue.message}` };
  });
}

/** The largest server run's planned load time, expected requests and most requests in flight, over the cells. */
function runSize(cells: readonly Cell[]): { ms: number; requests: number; concurrency: number } {
  const each = cells.map(({ scenario: { phases } }) => ({
    ms: phases.reduce((sum, p) => sum + (plannedMs(p) ?? 0), 0),
    requests: phases.reduce((sum, p) => sum + (expectedRequests(p) ?? 0), 0),
    concurrency: Math.max(0, ...phases.map((p) => phaseSlots(p) * p.clients)),
  }));
  return { ms: Math.max(0, ...each.map((e) => e.ms)), requests: Math.max(0, ...each.map((e) => e.requests)), concurrency: Math.max(0, ...each.map((e) => e.concurrency)) };
}

/**
 * What the quick profile shortens, from the cells as they run without and with it, per server run
 * (the largest cell's): `phases 10 s -> 2 s, concurrency 512 -> 64, 3 servers -> 1`. Only what changes; the profile's own keys when none of the
 * sizes named here does (it changed users, think time, ...).
 */
export function quickEffect(full: readonly Cell[], quick: readonly Cell[], profile: Record<string, unknown>): string {
  const { n, ms } = PLAIN_WORDS;
  const parts: string[] = [];
  const [a, b] = [runSize(full), runSize(quick)];
  if (a.ms !== b.ms) parts.push(`phases ${ms('durationMs', a.ms)} -> ${ms('durationMs', b.ms)}`);
  if (a.requests !== b.requests) parts.push(`${n('count', a.requests)} requests -> ${n('count', b.requests)}`);
  // users (closed, ramps) or in-flight slots; a burst's are its requests, said once above
  const sameAsRequests = a.concurrency === a.requests && b.concurrency === b.requests;
  if (a.concurrency !== b.concurrency && !sameAsRequests) parts.push(`concurrency ${n('users', a.concurrency)} -> ${n('users', b.concurrency)}`);
  const servers = (cells: readonly Cell[]) => cells[0]?.scenario.servers.length ?? 0;
  if (servers(full) !== servers(quick)) parts.push(`${servers(full)} servers -> ${servers(quick)}`);
  if (full.length !== quick.length) parts.push(`${full.length} matrix cells -> ${quick.length}`);
  if (parts.length > 0) return parts.join(', ');
  return Object.entries(profile)
    .map(([key, value]) => `${key} = ${JSON.stringify(value)}`)
    .join(', ');
}
