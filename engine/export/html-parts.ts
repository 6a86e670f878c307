import { cellNames } from '../../contract/cells.js';
import { bracketText, LOWER_BOUND_NOTE, modeOf, OFFERED_UNIT, sustainableText } from '../../contract/capacity/search.js';
import { uslTrusted } from '../../contract/capacity/usl.js';
import { escapeHtml as esc } from '../../contract/html-text.js';
import { ERROR_KINDS } from '../../contract/results.js';
import { CONNECTIONS_TERM, connectionsText } from '../../contract/connection-figures.js';
import { ERROR_REASONS_TERM, errorReasonText } from '../../contract/error-reasons.js';
import { LATENCIES, STAT_KEYS, type PhaseRow, type RunReport } from '../../contract/report/run-report.js';
import { CHECK_COLUMNS, pairCheckRows, passRateText } from '../../contract/report/check-table.js';

// Pieces of the HTML reports. Every piece of text that came from a user (labels, names, reasons,
// the scenario) goes through esc() (contract/html-text.ts); numbers carry their exact value in data-value for tests and
// for anyone who copies them.

/** A number as a table shows it: whole numbers bare, others with as many decimals as their size needs. */
export function fmt(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  const abs = Math.abs(value);
  if (abs >= 1000) return value.toFixed(0);
  if (abs >= 100) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  return value.toFixed(3);
}

export const num = (value: number | null | undefined, field: string): string =>
  `<td class="num" data-field="${esc(field)}"${value === null || value === undefined ? '' : ` data-value="${value}"`}>${fmt(value)}</td>`;

/** A phase of a server run: its counts and errors by kind, then its latencies by percentile. */
export function phaseTables(r: PhaseRow): string {
  const counts = [
    ['requests', r.count], ['ok', r.ok], ['errors', r.errorsTotal],
    ...ERROR_KINDS.map((k) => [`errors ${k}`, r.errors[k]] as const),
    ['throughput (req/s)', r.throughput], ['duration (ms)', r.durationMs], ['clients', r.clients],
  ] as const;
  const fields: Record<string, string> = { requests: 'count', ok: 'ok', errors: 'errorsTotal', 'throughput (req/s)': 'throughput', 'duration (ms)': 'durationMs', clients: 'clients' };
  const countHead = counts.map(([name]) => `<th>${esc(name)}</th>`).join('');
  const countRow = counts.map(([name, v]) => num(v, fields[name] ?? `errors.${name.slice(7)}`)).join('');
  const latRows = LATENCIES.map((l) => {
    const s = r.latency[l.key];
    return `<tr><th class="left">${esc(l.label)}</th>${STAT_KEYS.map((k) => num(s?.[k], `${l.key}.${k}`)).join('')}</tr>`;
  }).join('');
  return `<section class="phase" data-target-id="${r.targetId}" data-phase-index="${r.phaseIndex}">
<h3>${esc(r.server)} <span class="muted">· ${esc(r.phase)} (${esc(r.executor)})</span></h3>
<table class="data counts"><thead><tr>${countHead}</tr></thead><tbody><tr>${countRow}</tr></tbody></table>
<table class="data latency"><thead><tr><th class="left">time (ms)</th>${STAT_KEYS.map((k) => `<th>${k}</th>`).join('')}</tr></thead><tbody>${latRows}</tbody></table>
${connectionsLine(r)}${errorReasonsList(r)}${endpointTable(r)}</section>`;
}

/** A phase's new TLS connections and their handshake times, one line; nothing over plain http. */
function connectionsLine(r: PhaseRow): string {
  const c = r.connections;
  if (c === null) return '';
  return `<p class="muted connections" data-opened="${c.opened}" data-handshake-mean="${c.handshake.mean}" title="${esc(CONNECTIONS_TERM)}">${esc(connectionsText(c))}</p>\n`;
}

/** Why the phase's requests failed, a line each (a reason is the server's text: escaped); nothing where none had one. */
function errorReasonsList(r: PhaseRow): string {
  if (r.errorReasons.length === 0) return '';
  const items = r.errorReasons.map((e) => `<li data-kind="${esc(e.kind)}" data-count="${e.count}">${esc(errorReasonText(e))}</li>`).join('');
  return `<ul class="muted error-reasons" title="${esc(ERROR_REASONS_TERM)}">${items}</ul>
`;
}

/** An endpoint's columns: total in full, every other time by its p99 (the phase's own table has all five of each). */
type EndpointColumn = { l: (typeof LATENCIES)[number]; k: (typeof STAT_KEYS)[number] };
const ENDPOINT_COLUMNS: readonly EndpointColumn[] = LATENCIES.flatMap((l): EndpointColumn[] => (l.key === 'total' ? STAT_KEYS.map((k) => ({ l, k })) : [{ l, k: 'p99' }]));

/** A phase split by endpoint (request name), when it has more than one: a row each, the phase's figures over its requests. */
function endpointTable(r: PhaseRow): string {
  if (r.endpoints.length === 0) return '';
  const total = ENDPOINT_COLUMNS.filter((c) => c.l.key === 'total');
  const rest = ENDPOINT_COLUMNS.filter((c) => c.l.key !== 'total');
  const head = `<tr><th class="left" rowspan="2">endpoint</th><th rowspan="2">requests</th><th rowspan="2">errors</th><th rowspan="2">throughput (req/s)</th><th colspan="${total.length}">total (ms)</th><th colspan="${rest.length}">p99 (ms)</th></tr>
<tr>${total.map((c) => `<th>${c.k}</th>`).join('')}${rest.map((c) => `<th>${esc(c.l.label)}</th>`).join('')}</tr>`;
  const rows = r.endpoints
    .map((e) => `<tr data-endpoint="${esc(e.endpoint)}"><th class="left">${esc(e.endpoint)}</th>${num(e.count, 'count')}${num(e.errorsTotal, 'errorsTotal')}${num(e.throughput, 'throughput')}${ENDPOINT_COLUMNS.map((c) => num(e.latency[c.l.key]?.[c.k], `${c.l.key}.${c.k}`)).join('')}</tr>`)
    .join('');
  return `<table class="data endpoints" data-endpoints="${r.endpoints.length}"><thead>${head}</thead><tbody>${rows}</tbody></table>\n`;
}

export function problemBlock(report: Pick<RunReport, 'problem' | 'targetProblems'>): string {
  const lines = report.targetProblems.map((t) => `<li>${esc(t.server)}: ${esc(t.status)}${t.reason ? ` - ${esc(t.reason)}` : ''}</li>`).join('');
  if (report.problem === null && lines === '') return '';
  return `<div class="problem" data-testid="problem">${report.problem === null ? '' : `<p><b>${esc(report.problem)}</b></p>`}${lines === '' ? '' : `<ul>${lines}</ul>`}</div>`;
}

export function machineBlock(report: RunReport): string {
  const m = report.machine;
  const items: [string, string][] = [
    ['created', report.createdAt],
    ['duration', report.durationMs === null ? '-' : `${(report.durationMs / 1000).toFixed(1)} s`],
    ['scenario', report.scenarioName],
    ['profile', report.quick ? 'quick' : 'full'],
    ...(m === null ? [] : ([['machine', `${m.hostname} · ${m.platform} · ${m.cpus} × ${m.cpuModel} · ${(m.memoryBytes / 2 ** 30).toFixed(1)} GiB`], ['versions', `Node ${m.node} · Loadscope ${m.loadscope}`]] as [string, string][])),
  ];
  return `<dl class="facts">${items.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`;
}

export function scenarioBlock(report: RunReport): string {
  // each cell's short name (as the tables and charts name its server runs) beside its full key=value text
  const short = cellNames(report.cells.map((c, index) => ({ index, ...c })));
  const cells =
    report.cells.length <= 1
      ? ''
      : `<table class="data"><thead><tr><th class="left">name</th><th class="left">matrix cell</th></tr></thead><tbody>${report.cells.map((c, i) => `<tr><td class="left">${esc(short.get(i) ?? '')}</td><td class="left">${esc(c.label)}</td></tr>`).join('')}</tbody></table>`;
  return `<h2>Scenario</h2><p>${esc(report.scenarioName)}${report.quick ? ' · <b>quick profile</b> (shortened phases)' : ''} · ${report.cells.length} matrix cell(s)</p>${cells}
<details open><summary>the scenario as run (JSON, as the editor shows it)</summary><pre class="scenario">${esc(report.scenarioText)}</pre></details>`;
}

export function reportTablesBlock(report: RunReport): string {
  if (report.tables.length === 0) return '';
  const tables = report.tables.map((t) => {
    const head = t.header.map((h) => `<th>${esc(h)}</th>`).join('');
    const body = t.rows.map((r) => `<tr>${r.map((v) => (typeof v === 'number' ? `<td class="num" data-value="${v}">${fmt(v)}</td>` : `<td class="left">${esc(v ?? '-')}</td>`)).join('')}</tr>`).join('');
    return `<h3>${esc(t.title)} <span class="muted">(times in ${esc(t.unit)})</span></h3><table class="data report-table"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
  });
  return `<h2>The scenario's report tables</h2>${tables.join('')}`;
}

// In the compare report's side-by-side runs each run keeps to its column: a table wider than it scrolls
// inside its own box (display:block) instead of running under the next run's tables.
export const STYLE = `
body{font-family:"Segoe UI",system-ui,"DejaVu Sans",sans-serif;color:#1f2328;background:#fff;margin:24px;max-width:1500px}
h1{margin:0 0 4px;font-size:24px} h2{margin:28px 0 8px;font-size:19px;border-bottom:1px solid #d0d7de;padding-bottom:4px} h3{margin:16px 0 6px;font-size:15px}
.muted{color:#57606a;font-weight:normal} .problem{border:2px solid #cf222e;background:#ffebe9;padding:8px 14px;margin:12px 0;border-radius:6px;color:#82071e}
table.data{border-collapse:collapse;margin:4px 0 8px;font-size:13px} table.data th,table.data td{border:1px solid #d0d7de;padding:3px 8px;text-align:right}
table.data .left{text-align:left} table.data thead th{background:#f6f8fa}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;font-size:14px} dt{color:#57606a}
pre.scenario{background:#f6f8fa;padding:10px;font-size:12px;overflow:auto;max-height:480px}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(620px,1fr));gap:12px} .chart{height:400px;border:1px solid #eaeef2}
.runs{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,460px),1fr));gap:20px}
.run{min-width:0} .run h2,.run h3,.run dd{overflow-wrap:anywhere} .run table.data{display:block;max-width:100%;overflow-x:auto} .run dl.facts{grid-template-columns:max-content minmax(0,1fr)}
td.better{color:#1a7f37} td.worse{color:#cf222e} td .unjudged{display:block;font-size:11px;color:#57606a;white-space:nowrap;cursor:help} tr.pass .verdict{color:#1a7f37;font-weight:bold} tr.fail .verdict{color:#cf222e;font-weight:bold}`;

export function thresholdsBlock(report: RunReport): string {
  if (report.thresholds.length === 0) return '';
  const failed = report.thresholds.filter((t) => !t.passed).length;
  const rows = report.thresholds
    .map((t) => `<tr class="${t.passed ? 'pass' : 'fail'}"><td class="left">${esc(t.server)}</td><td class="left">${esc(t.phase)}${t.request == null ? '' : ` / ${esc(t.request)}`}</td><td class="left"><code>${esc(t.check)}</code></td>${num(t.measured, 'measured')}<td class="left verdict">${t.passed ? 'pass' : 'FAIL'}</td></tr>`)
    .join('');
  return `<h2>Thresholds <span class="muted">${failed === 0 ? `all ${report.thresholds.length} passed` : `${failed} of ${report.thresholds.length} failed`}</span></h2>
<table class="data thresholds" data-failed="${failed}"><thead><tr><th class="left">server</th><th class="left">phase / endpoint</th><th class="left">check</th><th>measured</th><th class="left">result</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** Each check of each endpoint: passes, fails, pass rate (contract/report/check-table.ts); nothing when the run has none. */
export function checksBlock(report: Pick<RunReport, 'checks'>): string {
  if (report.checks.length === 0) return '';
  const failed = report.checks.filter((c) => c.fails > 0).length;
  const rows = report.checks
    .map((c) => `<tr class="${c.fails === 0 ? 'pass' : 'fail'}" data-check="${esc(c.check)}"><td class="left">${esc(c.server)} / ${esc(c.phase)}</td><td class="left">${esc(c.endpoint)}</td><td class="left">${esc(c.check)}</td><td class="num" data-passes="${c.passes}">${c.passes}</td><td class="num" data-fails="${c.fails}">${c.fails}</td><td class="num"${c.rate === null ? '' : ` data-value="${c.rate}"`}>${esc(passRateText(c.rate))}</td></tr>`)
    .join('');
  return `<h2>Checks <span class="muted">${failed === 0 ? `all ${report.checks.length} always passed` : `${failed} of ${report.checks.length} failed at least once`}</span></h2>
<table class="data checks" data-failed="${failed}"><thead><tr>${CHECK_COLUMNS.map((h, i) => `<th${i < 3 ? ' class="left"' : ''}>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** Compare's checks: each check of each endpoint with every run's pass rate (paired by server, phase, endpoint and check); nothing when no run has one. */
export function compareChecksBlock(runs: readonly Pick<RunReport, 'runId' | 'checks'>[], tag: (i: number) => string): string {
  const pairs = pairCheckRows(runs.map((r) => r.checks));
  if (pairs.length === 0) return '';
  const rows = pairs
    .map((p) => {
      const rates = p.rows.map((r) => `<td class="num"${r?.rate == null ? '' : ` data-value="${r.rate}"`} title="${r === null ? 'not in this run' : `${r.passes} passed, ${r.fails} failed`}">${r === null ? '-' : esc(passRateText(r.rate))}</td>`).join('');
      return `<tr data-check="${esc(p.check)}"><td class="left">${esc(p.server)} / ${esc(p.phase)}</td><td class="left">${esc(p.endpoint)}</td><td class="left">${esc(p.check)}</td>${rates}</tr>`;
    })
    .join('');
  return `<h2>Checks <span class="muted">(each run's pass rate; hover for its passes and fails)</span></h2>
<table class="data checks compared"><thead><tr><th class="left">server / phase</th><th class="left">endpoint</th><th class="left">check</th>${runs.map((_, i) => `<th>${esc(tag(i))} pass rate</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** A capacity search's table: per server the sustainable load, its bracket, the limit, the knee and the USL fit. */
export function capacityBlock(report: RunReport): string {
  if (report.capacity === null || report.capacity.length === 0) return '';
  const sig = (v: number | null) => (v === null ? '-' : Number.isFinite(v) ? String(Number(v.toPrecision(3))) : '∞');
  const rows = report.capacity
    .map(({ name, capacity: { result, steps, ended, usl, uslNote } }) => {
      const knee = result.kneeStep === null ? null : steps[result.kneeStep]!.offered;
      // a poor fit's figures greyed with the reason (its curve is not drawn: capacity-chart.ts)
      const fit = usl && !uslTrusted(usl) ? ` muted" title="${esc(uslNote ?? '')}` : '';
      return `<tr data-server="${esc(name)}" title="${esc(result.detail)}"><td class="left">${esc(name)}</td><td class="num" data-value="${result.sustainable ?? ''}">${esc(sustainableText(result, (v) => sig(v)))}</td><td class="num">${esc(bracketText(result, (v) => sig(v)))}</td><td class="left">${esc(result.limitedBy)}</td><td class="num">${sig(knee)}</td><td class="left">${esc(ended)}</td><td class="num${fit}">${usl ? sig(usl.sigma) : '-'}</td><td class="num${fit}">${usl ? sig(usl.kappa) : '-'}</td><td class="num${fit}">${usl ? sig(usl.peakX) : '-'}</td><td class="num${fit}">${usl ? sig(usl.r2) : '-'}</td></tr>`;
    })
    .join('');
  const bounded = report.capacity.filter((s) => s.capacity.result.lowerBound).map((s) => s.name);
  const note = bounded.length === 0 ? '' : `<p class="muted" data-lower-bound>${esc(`Note: ${LOWER_BOUND_NOTE}: ${bounded.join(', ')}.`)}</p>`;
  const unit = OFFERED_UNIT[modeOf(report.capacity)];
  return `<table class="data capacity"><thead><tr><th class="left">server</th><th>sustainable (${unit})</th><th>bracket (${unit})</th><th class="left">limited by</th><th>knee (${unit})</th><th class="left">search ended</th><th>USL σ</th><th>USL κ</th><th>USL peak (req/s)</th><th>USL R²</th></tr></thead><tbody>${rows}</tbody></table>${note}`;
}
