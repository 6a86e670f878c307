import type { ReportTableResult } from '../../contract/results';
import { num } from '../ui/format';
import { Panel } from '../ui/widgets';

/** The scenario's own report tables (e.g. seed 000's mean wait / processing / total per server). */
export function ReportTables({ tables }: { tables: readonly ReportTableResult[] }) {
  if (tables.length === 0) return null;
  return (
    <>
      {tables.map((t, i) => (
        <Panel key={i} title={`${t.title} (${t.unit})`} testId="report-table">
          <div className="table-wrap">
            <table className="data">
              <thead>
                <tr>
                  {t.header.map((h, j) => (
                    <th key={j} className={j === 0 ? 'left' : ''}>
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {t.rows.map((row, r) => (
                  <tr key={r}>
                    {row.map((cell, c) => (
                      <td key={c} className={typeof cell === 'number' ? 'num' : 'left'}>
                        {typeof cell === 'number' ? num(cell) : (cell ?? '–')}
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
