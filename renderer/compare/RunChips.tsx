import { useEffect, useState } from 'react';
import type { RunListItem } from '../../contract/results';
import { useApi } from '../ui/ApiContext';
import { formatDate } from '../ui/format';

/** The runs being compared (each in its colour, removable) and a picker to add another. */
export function RunChips({ runIds, colors, titles, setRunIds }: { runIds: readonly number[]; colors: readonly string[]; titles: ReadonlyMap<number, string>; setRunIds: (ids: number[]) => void }) {
  const api = useApi();
  const [all, setAll] = useState<RunListItem[]>([]);
  useEffect(() => {
    let live = true;
    api.invoke('runs:list', { limit: 200 }).then((r) => live && setAll(r), () => undefined);
    return () => {
      live = false;
    };
  }, [api]);
  const addable = all.filter((r) => !runIds.includes(r.id) && r.status !== 'running');
  return (
    <div className="toolbar run-chips">
      {runIds.map((id, i) => (
        <span key={id} className="run-chip" style={{ borderColor: colors[i] }}>
          <span className="swatch" style={{ background: colors[i] }} />
          {String.fromCharCode(65 + i)}: #{id} {titles.get(id) ?? ''}
          <button type="button" className="chip-x" aria-label={`remove run ${id}`} onClick={() => setRunIds(runIds.filter((x) => x !== id))}>
            ×
          </button>
        </span>
      ))}
      <select
        value=""
        aria-label="add a run"
        data-testid="compare-add"
        onChange={(e) => {
          const id = Number(e.target.value);
          if (id > 0 && runIds.length < 16) setRunIds([...runIds, id]);
        }}
      >
        <option value="">+ add a run…</option>
        {addable.map((r) => (
          <option key={r.id} value={r.id}>
            #{r.id} {r.name ?? r.title}{r.engine === 'k6' ? ' (k6)' : ''} · {r.status} · {formatDate(r.createdAt)}
          </option>
        ))}
      </select>
    </div>
  );
}
