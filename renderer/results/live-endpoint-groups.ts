import type { SeriesGroup } from '../charts/groups';
import { colorAt } from '../charts/theme';
import type { LiveWindow } from '../../contract/results';
import { Scenario } from '../../contract/scenario';
import { templateName } from '../../contract/template-name';
import type { RunSeries } from '../charts/run-data';

// The live latency chart split by endpoint (issue 36): one line per server run and endpoint, from the
// endpoint windows the driver sends with each live window (engine/driver/measure/endpoint-windows.ts bounds
// them). A window of a phase of one request carries none: its line is that request's endpoint, named
// from the scenario as it runs, as the after-run split names it. Lines are named as the after-run
// split's (useEndpointGroups): the endpoint, and the server run before it when there are several.

/** The phase's only endpoint's name, for a window without endpoint windows (null: unknown). */
function singleEndpointName(phases: Scenario['phases'] | null, phaseIndex: number | null): string | null {
  const only = phaseIndex === null ? undefined : phases?.[phaseIndex]?.requests;
  return only?.length === 1 ? templateName(only[0]!) : null;
}

/** The latency chart's groups per endpoint, or null while no window has been split (then the chart stays per server run). */
export function liveEndpointGroups(series: RunSeries, scenario: unknown): SeriesGroup[] | null {
  if (!series.targets.some((t) => t.windows.some((w) => w.endpoints !== undefined))) return null;
  const parsed = Scenario.safeParse(scenario);
  const phases = parsed.success ? parsed.data.phases : null;
  const groups: SeriesGroup[] = [];
  for (const t of series.targets) {
    const byName = new Map<string, LiveWindow[]>();
    const add = (name: string, w: LiveWindow) => {
      let list = byName.get(name);
      if (list === undefined) byName.set(name, (list = []));
      list.push(w);
    };
    for (const w of t.windows) {
      if (w.endpoints === undefined) {
        const name = singleEndpointName(phases, w.phaseIndex);
        if (name !== null) add(name, w);
        continue;
      }
      for (const { name, ...e } of w.endpoints) add(name, { ...w, ...e, throughput: w.count > 0 ? (w.throughput * e.count) / w.count : 0, totalBuckets: undefined, endpoints: undefined });
    }
    for (const [name, windows] of byName) {
      groups.push({
        key: `${series.runId}:${t.targetId}:${name}`,
        name: series.targets.length === 1 ? name : `${t.label} · ${name}`,
        color: colorAt(groups.length),
        windows,
        samples: [],
        phases: t.phases,
      });
    }
  }
  return groups;
}
