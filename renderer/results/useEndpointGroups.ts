import { useEffect, useState } from 'react';
import { shownEndpoints } from '../../contract/endpoints';
import { endpointWindows } from '../../contract/report/endpoint-windows';
import { phaseEndpoints, type RunSummary } from '../../contract/results';
import type { SeriesGroup } from '../charts/groups';
import { colorAt } from '../charts/theme';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';

/** Request rows read for the split chart in all; each server run gets an equal share (as the scatter's cap). */
export const ENDPOINT_ROWS_CAP = 20_000;

export interface EndpointGroups {
  groups: SeriesGroup[];
  /** rows read and rows recorded, for the footnote */
  shown: number;
  total: number;
}

/** Whether a run has a phase split into several endpoints: only then can its chart be split. */
export const hasEndpoints = (summary: Pick<RunSummary, 'targets'>): boolean => summary.targets.some((t) => t.phases.some((p) => shownEndpoints(p).length > 0));

/**
 * The latency chart's groups split by endpoint, one per server run and endpoint, made from the stored
 * request rows (contract/report/endpoint-windows.ts); read only while `on`, once per run.
 */
export function useEndpointGroups(summary: RunSummary | undefined, on: boolean): { data: EndpointGroups | null; error: string | null } {
  const api = useApi();
  const [state, setState] = useState<{ runId: number; data: EndpointGroups | null; error: string | null } | null>(null);
  const wanted = on && summary !== undefined;
  const loaded = state !== null && state.runId === summary?.id;
  useEffect(() => {
    if (!wanted || loaded || summary === undefined) return;
    let live = true;
    const targets = summary.targets;
    const limit = Math.max(1000, Math.floor(ENDPOINT_ROWS_CAP / Math.max(targets.length, 1)));
    Promise.all(targets.map((t) => api.invoke('runs:requests', { runId: summary.id, targetId: t.id, limit }))).then(
      (answers) => {
        if (!live) return;
        const groups: SeriesGroup[] = [];
        answers.forEach((a, i) => {
          const t = targets[i]!;
          // a row's endpoint by its phase and template (a phase of one request: its one endpoint)
          const name = (phaseIndex: number, templateIdx: number): string | null => phaseEndpoints(t.phases.find((p) => p.index === phaseIndex) ?? {}).find((e) => e.index === templateIdx)?.name ?? null;
          const scale = a.points.length > 0 ? a.total / a.points.length : 1;
          for (const e of endpointWindows(a.points, { runId: summary.id, targetId: t.id }, name, scale)) {
            groups.push({
              key: `${summary.id}:${t.id}:${e.name}`,
              name: targets.length === 1 ? e.name : `${t.name} · ${e.name}`,
              color: colorAt(groups.length),
              windows: e.windows,
              samples: [],
              phases: t.phases.map((p) => ({ phaseIndex: p.index, name: p.name, tMs: p.startedMs })),
            });
          }
        });
        setState({ runId: summary.id, data: { groups, shown: answers.reduce((n, a) => n + a.points.length, 0), total: answers.reduce((n, a) => n + a.total, 0) }, error: null });
      },
      (err: unknown) => live && setState({ runId: summary.id, data: null, error: errorMessage(err) }),
    );
    return () => {
      live = false;
    };
  }, [api, summary, wanted, loaded]);
  return loaded ? { data: state.data, error: state.error } : { data: null, error: null };
}
