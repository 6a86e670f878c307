import { CHECK_COLUMNS, checkRows, passRateText } from '../../contract/report/check-table.js';
import type { RunSummary } from '../../contract/results.js';
import { fmtNum, textTable } from './table.js';

// `show`'s check table (issue 39): each check of each endpoint, its passes, fails and pass rate
// (contract/report/check-table.ts, the rows every view shows). Names are the scenario's: the stream
// guard escapes them for the terminal.

/** The run's checks as a table under "Checks:"; '' when it has none. */
export function formatChecks(run: Pick<RunSummary, 'targets'>): string {
  const rows = checkRows(run);
  if (rows.length === 0) return '';
  const failed = rows.filter((r) => r.fails > 0).length;
  const head = `Checks: ${rows.length - failed} always passed, ${failed} failed at least once`;
  return `${head}\n${textTable([...CHECK_COLUMNS], rows.map((r) => [`${r.server} / ${r.phase}`, r.endpoint, r.check, fmtNum(r.passes), fmtNum(r.fails), passRateText(r.rate)]))}`;
}
