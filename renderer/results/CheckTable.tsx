import { CHECK_COLUMNS, checkRows, pairChecks, passRateText } from '../../contract/report/check-table';
import type { RunSummary } from '../../contract/results';
import { count } from '../ui/format';

// The per-endpoint check table (issue 39): each check of each endpoint of a run, with its passes,
// fails and pass rate; given several runs (Compare), each run's pass rate side by side, paired by
// server, phase, endpoint and check (contract/report/check-table.ts makes the rows for every view).

const runTag = (i: number) => String.fromCharCode(65 + i);

export function CheckTable({ runs }: { runs: readonly RunSummary[] }) {
  if (runs.length === 1) return <OneRun run={runs[0]!} />;
  const pairs = pairChecks(runs);
  if (pairs.length === 0) return null;
  return (
    <section className="checks" data-testid="check-table" data-runs={runs.length}>
      <h3>
        Checks <span className="muted small">each run&apos;s pass rate; hover for its passes and fails</span>
      </h3>
      <table className="data compact">
        <thead>
          <tr>
            <th className="left">server / phase</th>
            <th className="left">endpoint</th>
            <th className="left">check</th>
            {runs.map((r, i) => (
              <th key={r.id}>
                {runTag(i)} pass rate
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {pairs.map((p, k) => (
            <tr key={k} data-testid="check-row" data-check={p.check}>
              <td className="left small">
                {p.server} / {p.phase}
              </td>
              <td className="left">{p.endpoint}</td>
              <td className="left mono">{p.check}</td>
              {p.rows.map((r, i) => (
                <td key={i} className={`num ${r !== null && r.fails > 0 ? 'bad' : ''}`} data-testid="check-rate" title={r === null ? 'not in this run' : `${r.passes} passed, ${r.fails} failed`}>
                  {r === null ? '-' : passRateText(r.rate)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function OneRun({ run }: { run: RunSummary }) {
  const rows = checkRows(run);
  if (rows.length === 0) return null;
  const failed = rows.filter((r) => r.fails > 0).length;
  return (
    <section className="checks" data-testid="check-table" data-runs={1}>
      <h3>
        Checks <span className="muted small">{failed === 0 ? `all ${rows.length} always passed` : `${failed} of ${rows.length} failed at least once`}</span>
      </h3>
      <table className="data compact">
        <thead>
          <tr>
            {CHECK_COLUMNS.map((h, i) => (
              <th key={h} className={i < 3 ? 'left' : undefined}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, k) => (
            <tr key={k} data-testid="check-row" data-check={r.check} data-fails={r.fails}>
              <td className="left small">
                {r.server} / {r.phase}
              </td>
              <td className="left">{r.endpoint}</td>
              <td className="left mono">{r.check}</td>
              <td className="num" data-testid="check-passes">{count(r.passes)}</td>
              <td className={`num ${r.fails > 0 ? 'bad' : ''}`} data-testid="check-fails">
                {count(r.fails)}
              </td>
              <td className="num" data-testid="check-rate">{passRateText(r.rate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
