import type { ReactNode } from 'react';

// A table of checks judged pass or fail (a run's thresholds, its regression rules): an unlabelled
// verdict column first, its badge green for a pass, then the columns the list names. One shape, so
// the two lists read alike and a change to the verdict column lands in both.

export interface VerdictColumn {
  head: string;
  /** text read from the left; otherwise a number's column */
  left?: boolean;
}

/** The table and its head: the verdict column, then `columns`; `children` are its rows. */
export function VerdictTable({ columns, children }: { columns: VerdictColumn[]; children: ReactNode }) {
  return (
    <table className="data compact">
      <thead>
        <tr>
          <th aria-label="verdict" />
          {columns.map((c) => (
            <th key={c.head} className={c.left === true ? 'left' : undefined}>
              {c.head}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** A row's first cell: its verdict as a badge, green for a pass, red otherwise. */
export function VerdictCell({ passed, children }: { passed: boolean; children: ReactNode }) {
  return (
    <td>
      <span className={`badge ${passed ? 'badge-completed' : 'badge-failed'}`}>{children}</span>
    </td>
  );
}
