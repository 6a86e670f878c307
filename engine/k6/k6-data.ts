import type { Scenario } from '../../contract/scenario.js';
import type { DataSet } from '../../contract/variables.js';

// A scenario's data files as a k6 script reads them: Loadscope reads and parses each file once
// (engine/scenario/data-files.ts: csv-parse, JSON lines, the same limits and errors), and k6 gets
// the rows as JSON, so both engines read the very same rows. The script opens each with k6's open()
// inside a SharedArray (one copy per k6 process, not per VU), from the folder it is given (a
// ConfigMap's mount path in a cluster; by default the script's own folder). A file's name is
// `data-<i>.json` by its place in the scenario's `data` list: no scenario text ever names a file k6 opens.

/** The file k6 opens for the scenario's i-th data file. */
export const k6DataFileName = (index: number): string => `data-${index}.json`;

/** What a phase reads: its data file's name in the script's folder, its order, its columns. */
export interface PlanData {
  file: string;
  order: DataSet['order'];
  columns: string[];
}

/** The phase's data as the plan carries it, or null without one (or when the run read none). */
export function planData(scenario: Scenario, dataName: string | undefined, sets: readonly DataSet[]): PlanData | null {
  if (dataName === undefined) return null;
  const index = (scenario.data ?? []).findIndex((d) => d.name === dataName);
  const set = sets.find((s) => s.name === dataName);
  if (index < 0) return null;
  return { file: k6DataFileName(index), order: set?.order ?? scenario.data![index]!.order, columns: set?.columns ?? [] };
}

/** Each data file the script opens, as name and text (JSON: {"rows": [[...], ...]}). */
export function k6DataFiles(scenario: Scenario, sets: readonly DataSet[]): { name: string; text: string }[] {
  return (scenario.data ?? []).flatMap((d, i) => {
    const set = sets.find((s) => s.name === d.name);
    return set === undefined ? [] : [{ name: k6DataFileName(i), text: JSON.stringify({ rows: set.rows }) }];
  });
}
