import { phaseName } from '../../contract/phase.js';
import type { Scenario } from '../../contract/scenario.js';
import type { DataSet } from '../../contract/variables.js';
import { dataRanOutNote } from '../driver/requests/phase-inputs.js';
import { readPoints } from './import/read-points.js';

// A unique data file that runs out in a k6 run says so as a native run does: the script's runtime
// adds a point to DATA_OUT_METRIC (tagged with its phase) for each request it did not send for want
// of a row, and after the run its result files are read for them (through the import's bounded
// reader), only when some phase reads a unique file.

/** The k6 metric the script's runtime counts a request not sent for want of a unique row in. */
const DATA_OUT_METRIC = 'loadscope_data_out';

/** The note of each phase whose unique rows ran out in these k6 result files, in phase order. */
export async function dataRanOutNotes(files: readonly string[], scenario: Scenario, data: readonly DataSet[]): Promise<string[]> {
  const unique = (i: number) => data.find((d) => d.name === scenario.phases[i]?.data && d.order === 'unique');
  if (!scenario.phases.some((_, i) => unique(i) !== undefined)) return [];
  const ranOut = new Set<number>();
  for (const file of files) {
    for await (const p of readPoints(file, { points: 0, skipped: 0 })) {
      if (p.metric === DATA_OUT_METRIC) ranOut.add(Number(p.tags.phase_idx));
    }
  }
  return scenario.phases.flatMap((p, i) => {
    const set = ranOut.has(i) ? unique(i) : undefined;
    // k6 hands out rows by iteration number: a phase that ran out sent every row once
    return set === undefined ? [] : [dataRanOutNote(`phase '${phaseName(p, i)}'`, set, set.rows.length)];
  });
}
