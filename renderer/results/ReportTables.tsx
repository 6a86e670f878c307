import type { ReportTableResult } from '../../contract/results';
import { count, num } from '../ui/format';
import { Panel } from '../ui/widgets';

const METRIC_NAMES: Record<string, string> = { total: 'total', wait: 'wait', processing: 'processing', serverWait: 'server wait', lag: 'send lag' };

/** A report column named by its metric key ("wait.mean") reads as words ("mean wait"). */
export function columnLabel(header: string): string {
  const m = /^(\w+)\.(mean|min|max|stddev|p\d+)( \(\w+\))?$/.exec(header);
  const metric = m === null ? undefined : METRIC_NAMES[m[1]!];
  if (m === null || metric === undefined) return header;
  const stat = m[2] === 'p999' ? 'p99.9' : m[2]!;
  return `${stat} ${metric}${m[3] ?? ''}`;
}

/** The scenario's own report tables (e.g. seed 000's mean wait / processing / total per server). */
export function ReportTables({ tables }: { tables: readonly ReportTableResult[] }) {
  if (tables.length === 0) return null;
  return (
    <>
      {tables.map((t, i) => (
        <Panel key={i} title={t.unit === '' ? t.title : `${t.title} (${t.unit})`} testId="report-table">
          <div className="table-wrap">
            <table className="data">
              <thead>
                <tr>
                  {t.header.map((h, j) => (
                    <th key={j} className={j === 0 ? 'left' : ''}>
                      {columnLabel(h)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {t.rows.map((row, r) => (
                  <tr key={r}>
                    {row.map((cell, c) => (
                      <td key={c} className={typeof cell === 'number' ? 'num' : 'left'}>
                        {typeof cell === 'number' ? (Number.isInteger(cell) ? count(cell) : num(cell)) : cell === null || cell === undefined ? '–' : columnLabel(String(cell))}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Panel>
      ))}
    </>
  );
}
