import { RunListItem, type RunStatus } from '../contract/results.js';
import { json, num, optNum, optStr, rows, schemaError, str, type Row } from './sql-read.js';

// History's list of runs: one statement with each run's aggregates (requests, errors, mean, threshold
// and verdict tallies, its group), its rows checked with the contract's schema. read-run.ts runs it.

export interface ListRunsOptions {
  /** matches the scenario name or title (case-insensitive substring), or the run id */
  text?: string;
  status?: RunStatus;
  /** default 500 */
  limit?: number;
}

export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** History's tally of a run's regression verdict (run_verdicts, migration 020); null: not judged. */
function regressionTally(r: Row, where: string): { failed: number; rules: number; oneRun: boolean } | null {
  const rules = optNum(r, 'rules_total', where);
  return rules === null ? null : { failed: num(r, 'rules_failed', where), rules, oneRun: num(r, 'one_run', where) === 1 };
}

function thresholdTally(r: Row, where: string): { passed: number; failed: number } | null {
  const total = num(r, 'thresholds_total', where);
  if (total === 0) return null;
  const passed = optNum(r, 'thresholds_passed', where) ?? 0;
  return { passed, failed: total - passed };
}

// Per-run aggregates as correlated subqueries, so only the runs inside the limit pay for them.
export function listSql(andWhere: string): string {
  return `SELECT r.id, r.scenario_name, r.title, r.status, r.quick, r.created_at, r.duration_ms, r.engine, r.group_id, r.group_index, r.name, r.note,
         -- per server run, its phases' counts or the rows it recorded when more: a run cut off mid-phase
         -- has rows and no figures for it (contract/stored-requests.ts targetRequests)
         (SELECT coalesce(sum(max(t.raw_rows, (SELECT coalesce(sum(p.count), 0) FROM phases p WHERE p.target_id = t.id))), 0) FROM targets t WHERE t.run_id = r.id) AS requests,
         (SELECT coalesce(sum(p.count - p.ok), 0) FROM phases p JOIN targets t ON t.id = p.target_id WHERE t.run_id = r.id) AS errors,
         (SELECT sum(json_extract(p.total_json, '$.mean') * json_extract(p.total_json, '$.count')) / nullif(sum(json_extract(p.total_json, '$.count')), 0)
            FROM phases p JOIN targets t ON t.id = p.target_id WHERE t.run_id = r.id) AS mean_total,
         (SELECT sum(h.passed) FROM thresholds h JOIN targets t ON t.id = h.target_id WHERE t.run_id = r.id) AS thresholds_passed,
         (SELECT count(*) FROM thresholds h JOIN targets t ON t.id = h.target_id WHERE t.run_id = r.id) AS thresholds_total,
         (SELECT json_group_array(label) FROM (SELECT label FROM targets WHERE run_id = r.id GROUP BY label ORDER BY min(id))) AS servers_json,
         (SELECT count(*) FROM runs g WHERE g.group_id = r.group_id) AS group_size,
         v.rules_failed, v.rules_total, v.one_run
       FROM runs r LEFT JOIN run_verdicts v ON v.run_id = r.id
       WHERE (@status IS NULL OR r.status = @status)
         AND (@text IS NULL OR r.scenario_name LIKE @like ESCAPE '\\' OR r.title LIKE @like ESCAPE '\\' OR r.name LIKE @like ESCAPE '\\' OR CAST(r.id AS TEXT) = @text)
         ${andWhere}
       ORDER BY r.id DESC
       LIMIT @limit`;
}

function listGroup(r: Row, where: string): { id: number; index: number; size: number } | null {
  const id = optNum(r, 'group_id', where);
  const index = optNum(r, 'group_index', where);
  return id === null || index === null ? null : { id, index, size: num(r, 'group_size', where) };
}

/** Rows of the list statement as checked list items. */
export function listItems(found: unknown[]): RunListItem[] {
  const candidates = rows(found, 'run list').map((r) => {
    const where = `run ${String(r.id)}`;
    return {
      id: num(r, 'id', where),
      scenarioName: str(r, 'scenario_name', where),
      title: str(r, 'title', where),
      status: str(r, 'status', where),
      quick: num(r, 'quick', where) === 1,
      createdAt: str(r, 'created_at', where),
      durationMs: optNum(r, 'duration_ms', where),
      requests: num(r, 'requests', where),
      errors: num(r, 'errors', where),
      servers: json(r, 'servers_json', where),
      engine: str(r, 'engine', where),
      meanTotalMs: optNum(r, 'mean_total', where),
      thresholds: thresholdTally(r, where),
      regression: regressionTally(r, where),
      group: listGroup(r, where),
      name: optStr(r, 'name', where),
      note: optStr(r, 'note', where),
    };
  });
  const parsed = RunListItem.array().safeParse(candidates);
  if (!parsed.success) throw schemaError('run list', parsed.error.issues);
  return parsed.data;
}
