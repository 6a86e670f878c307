import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { AXIS_NAMES } from '../../contract/report/chart-options.js';
import { exportLegendExtra, exportLegendLabels } from '../../contract/report/export-layout.js';
import { beyondNoise } from '../../contract/compare.js';
import { GROUP_METRIC_LABELS } from '../../contract/group-stats.js';
import { ratioVerdict, runTag, type CompareReport, type PhasePair } from '../../contract/report/compare-report.js';
import type { ReportChart, RunReport } from '../../contract/report/run-report.js';
import { CAPACITY_MEANS, modeOf } from '../../contract/capacity/search.js';
import { escapeHtml as esc } from '../../contract/html-text.js';
import { diagnosisBlock, DIAGNOSIS_STYLE } from './html-diagnosis.js';
import { regressionBlock } from './html-verdict.js';
import { streamsBlock } from './html-streams.js';
import { summaryBlock, whatChangedBlock } from './html-compare-summary.js';
import { capacityBlock, checksBlock, compareChecksBlock, fmt, machineBlock, phaseTables, problemBlock, reportTablesBlock, scenarioBlock, STYLE, thresholdsBlock } from './html-parts.js';

// The self-contained HTML report: one file with ECharts inlined, the charts' options embedded as
// JSON, drawn in the browser (interactive: tooltips, legend toggles) with no network access; a
// Content-Security-Policy forbids any fetch, so the file behaves the same from disk or from mail.

let echartsSource: string | undefined;
function echartsJs(): string {
  echartsSource ??= readFileSync(createRequire(import.meta.url).resolve('echarts/dist/echarts.min.js'), 'utf8');
  return echartsSource;
}

/** JSON for a <script> element: no "</script>" or "<!--" can end it early. */
const scriptJson = (data: unknown): string => JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

// a run's note keeps the lines its author gave it (runs:annotate), as text
const NOTE_STYLE = 'p.run-note{white-space:pre-line;margin:8px 0;padding:6px 12px;border-left:3px solid #d0d7de;max-width:100ch}';

const DRAW = `(function(){
var data=JSON.parse(document.getElementById('loadscope-data').textContent);
function pct(x){var q=100*(1-1/x);return q<=0?'0%':Number(q.toPrecision(6))+'%';}
data.charts.forEach(function(c){
  var el=document.getElementById('chart-'+c.id);
  var o=c.option;
  if(o.xAxis&&o.xAxis.name===data.percentileAxis){o.xAxis.axisLabel=Object.assign({},o.xAxis.axisLabel,{formatter:pct});}
  // each legend entry as contract/report/export-layout.ts fitted it (JSON carries no formatter); hovering it names it whole
  if(o.legend&&c.labels){o.legend.formatter=function(n){return Object.prototype.hasOwnProperty.call(c.labels,n)?c.labels[n]:n;};}
  var chart=echarts.init(el,null,{renderer:'canvas'});
  chart.setOption(o);
  el.setAttribute('data-drawn','1');
  el.setAttribute('data-series',String((o.series||[]).filter(function(x){return x.data&&x.data.length>0;}).length));
  window.addEventListener('resize',function(){chart.resize();});
});
document.body.setAttribute('data-charts-drawn',String(data.charts.length));
})();`;

/** A chart's box in the report (px) with a legend of one row. */
const CHART_H = 400;

function chartsBlock(charts: readonly ReportChart[]): string {
  // a chart's box grows by its legend's extra rows, so many server runs never squash its plot
  return `<div class="charts">${charts.map((c) => `<div class="chart" id="chart-${esc(c.id)}" data-chart-id="${esc(c.id)}" role="img" aria-label="${esc(c.title)}" style="height:${CHART_H + exportLegendExtra(c.option)}px"></div>`).join('')}</div>`;
}

function page(title: string, body: string, charts: readonly ReportChart[]): string {
  const data = { percentileAxis: AXIS_NAMES.percentile, charts: charts.map((c) => ({ id: c.id, option: c.option, labels: exportLegendLabels(c.option) })) };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}
${NOTE_STYLE}
${DIAGNOSIS_STYLE}</style></head>
<body>
${body}
<script type="application/json" id="loadscope-data">${scriptJson(data)}</script>
<script>${echartsJs()}</script>
<script>${DRAW}</script>
</body></html>
`;
}

const isCapacityChart = (c: ReportChart) => c.id.startsWith('capacity-');

/** The note someone gave the run, under its heading; nothing when it has none. */
function noteBlock(report: Pick<RunReport, 'note'>): string {
  return report.note === null || report.note.trim() === '' ? '' : `<p class="run-note" data-run-note>${esc(report.note)}</p>`;
}

/** Why servers have no CPU or memory chart (Loadscope does not run them); nothing when all have one. */
function serverSamplesBlock(report: Pick<RunReport, 'serverSamplesNote'>): string {
  return report.serverSamplesNote === null ? '' : `<p class="muted" data-server-samples-note>${esc(report.serverSamplesNote)}</p>`;
}

function runSection(report: RunReport, withCharts: boolean): string {
  const capacity = capacityBlock(report);
  return `${machineBlock(report)}
${scenarioBlock(report)}
${thresholdsBlock(report)}
${checksBlock(report)}
${regressionBlock(report)}
${capacity === '' ? '' : `<section class="capacity" data-servers="${report.capacity?.length ?? 0}"><h2>Capacity <span class="muted">(${esc(CAPACITY_MEANS[modeOf(report.capacity ?? [])])})</span></h2>${capacity}${withCharts ? chartsBlock(report.charts.filter(isCapacityChart)) : ''}</section>`}
<h2>Phases</h2>${report.rows.length === 0 ? '<p>No phase ran.</p>' : report.rows.map(phaseTables).join('\n')}
${streamsBlock(report)}
${report.timingNotes.map((n) => `<p class="muted" data-timing-note>${esc(n)}</p>`).join('')}
${withCharts ? `<h2>Charts</h2>${serverSamplesBlock(report)}${chartsBlock(report.charts.filter((c) => !isCapacityChart(c)))}` : ''}
${reportTablesBlock(report)}`;
}

export function runHtml(report: RunReport): string {
  const body = `<header data-run-id="${report.runId}"><h1>${esc(report.title)}</h1><div class="muted">${esc(report.subtitle)}</div>${noteBlock(report)}</header>
${problemBlock(report)}
${diagnosisBlock(report)}
${runSection(report, true)}
<footer class="muted">${report.engineNotes.map((n) => `<p data-engine-note>${esc(n)}</p>`).join('')}<p>Written by Loadscope. Times are ms unless a heading says otherwise.</p></footer>`;
  return page(report.title, body, report.charts);
}

function pairTable(report: CompareReport, pair: PhasePair): string {
  const runs = report.runs;
  const head = `<th class="left">metric</th>${runs.map((r, i) => `<th>${esc(runTag(i, { id: r.runId }))}</th>`).join('')}${runs.slice(1).map((_, i) => `<th>${String.fromCharCode(66 + i)}/A</th>`).join('')}`;
  const body = pair.metrics
    .map((m) => {
      const values = m.values.map((v) => `<td class="num"${v === null ? '' : ` data-value="${v}"`}>${fmt(v)}</td>`).join('');
      const ratios = m.ratios
        .slice(1)
        .map((v, k) => {
          const iv = m.intervals[k + 1] ?? null;
          const judged = m.judgements[k + 1] ?? null;
          // one too wide to judge (or none) says so in the cell, as the view does, and why on hover; its interval is not printed
          const unjudged = judged === 'too short' || judged === 'too variable' ? judged : null;
          const title = m.why[k + 1] ?? (iv === null ? 'no interval for this figure: never coloured' : `95 % interval ${iv.low.toFixed(3)} - ${iv.high.toFixed(3)}: ${beyondNoise(iv) ? 'beyond the noise' : 'within the noise'}`);
          const interval = iv === null || unjudged !== null ? '' : ` <span class="muted">[${iv.low.toFixed(2)}-${iv.high.toFixed(2)}]</span>`;
          const word = unjudged === null ? '' : ` <span class="unjudged">${unjudged}</span>`;
          return `<td class="num ratio ${ratioVerdict(m, iv)}" title="${esc(title)}" data-beyond-noise="${iv !== null && beyondNoise(iv)}"${judged === null ? '' : ` data-judgement="${judged}"`}${v === null ? '' : ` data-value="${v}"`}>${v === null ? '-' : `×${v.toFixed(2)}`}${interval}${word}</td>`;
        })
        .join('');
      return `<tr data-metric="${esc(m.key)}"><th class="left">${esc(m.label)}</th>${values}${ratios}</tr>`;
    })
    .join('');
  const endpoint = pair.endpoint === null ? '' : ` <span class="muted">· endpoint</span> ${esc(pair.endpoint)}`;
  return `<section class="pair" data-server="${esc(pair.server)}" data-phase="${esc(pair.phase)}"${pair.endpoint === null ? '' : ` data-endpoint="${esc(pair.endpoint)}"`}><h3>${esc(pair.server)} <span class="muted">· ${esc(pair.phase)}</span>${endpoint}</h3>
<table class="data paired"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></section>`;
}

/** Runs of one group of repeated runs: each figure's mean with its 95 % interval across them. */
function groupBlock(report: CompareReport): string {
  if (report.group === null) return '';
  const n = report.runs.length;
  const sig = (v: number | null) => (v === null ? '-' : String(Number(v.toPrecision(3))));
  const rows = report.group.figures
    .map((f) => `<tr data-metric="${esc(f.metric)}" data-server="${esc(f.server)}" data-phase="${esc(f.phase)}"><th class="left">${esc(f.server)} / ${esc(f.phase)}</th><td class="left">${esc(GROUP_METRIC_LABELS[f.metric])}</td><td class="num" data-value="${f.interval.mean}">${sig(f.interval.mean)}</td><td class="num">${f.interval.low === null ? '-' : `${sig(f.interval.low)} – ${sig(f.interval.high)}`}</td><td class="num">${f.values.map(sig).join(', ')}</td></tr>`)
    .join('');
  return `<section class="group" data-group="${report.group.id}"><h2>Across the ${n} runs of group ${report.group.id} <span class="muted">(each figure's mean with its 95 % interval, Student's t with ${n - 1} degrees of freedom)</span></h2>
<table class="data"><thead><tr><th class="left">server / phase</th><th class="left">figure</th><th>mean</th><th>95 % interval</th><th>each run</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

export function compareHtml(report: CompareReport): string {
  const heads = report.runs.map((r, i) => `<li><b>${esc(runTag(i, { id: r.runId }))}</b> ${esc(r.title)} <span class="muted">${esc(r.subtitle)}</span></li>`).join('');
  const problems = report.runs.map((r, i) => (problemBlock(r) === '' ? '' : `<div><b>${esc(runTag(i, { id: r.runId }))}</b>${problemBlock(r)}</div>`)).join('');
  const body = `<header><h1>${esc(report.title)}</h1><ul>${heads}</ul></header>${problems}
${report.differences.length === 0 ? '' : `<div class="problem"><b>The runs did not run the same scenario the same way:</b><ul>${report.differences.map((d) => `<li>${esc(d)}</li>`).join('')}</ul></div>`}
${summaryBlock(report)}
${whatChangedBlock(report)}
<h2>Paired phases <span class="muted">(paired by server label, matrix cell and phase name, and a split phase's endpoints by request name, as the compare view pairs them; ratios are each run against A, marked better/worse only where the 95 % bootstrap interval excludes 1; "too short" or "too variable" where it is too wide to judge, why on hover)</span></h2>
${report.pairs.map((p) => pairTable(report, p)).join('\n')}
${compareChecksBlock(report.runs, (i) => runTag(i, { id: report.runs[i]!.runId }))}
${groupBlock(report)}
<h2>Charts</h2>${chartsBlock(report.charts)}
<h2>The runs side by side</h2>
<div class="runs">${report.runs.map((r, i) => `<div class="run" data-run-id="${r.runId}"><h2>${esc(runTag(i, { id: r.runId }))} ${esc(r.title)}</h2>${noteBlock(r)}${runSection(r, false)}</div>`).join('')}</div>`;
  return page(report.title, body, report.charts);
}
