import { STREAM_TERM } from '../../contract/stream-text.js';
import { escapeHtml as esc } from '../../contract/html-text.js';
import { STREAM_COLUMNS, streamColumnGroups } from '../../contract/report/stream-table.js';
import type { RunReport } from '../../contract/report/run-report.js';
import { num } from './html-parts.js';

// The HTML report's streams table (issue 41): a row per phase that opened streams and per split
// endpoint that did, its columns the named figures of contract/report/stream-table.ts. Server,
// phase and endpoint names are the user's text: escaped, as every user string in the report.

export function streamsBlock(report: Pick<RunReport, 'streams'>): string {
  if (report.streams.length === 0) return '';
  const rows = report.streams
    .map((r) => {
      const endpoint = r.endpoint === null ? '<td class="left muted">(phase)</td>' : `<td class="left">${esc(r.endpoint)}</td>`;
      const cells = STREAM_COLUMNS.map((c, i) => num(r.values[i], c.figure)).join('');
      return `<tr data-target-id="${r.targetId}" data-phase-index="${r.phaseIndex}"${r.endpoint === null ? '' : ` data-endpoint="${esc(r.endpoint)}"`}><td class="left" title="${esc(r.serverTitle)}">${esc(r.server)}</td><td class="left">${esc(r.phase)}</td>${endpoint}${cells}</tr>`;
    })
    .join('');
  const head = `<tr><th class="left" rowspan="2">server</th><th class="left" rowspan="2">phase</th><th class="left" rowspan="2">endpoint</th>${streamColumnGroups().map((g) => `<th colspan="${g.span}">${g.group === 'count' ? 'received' : `${g.group} (ms)`}</th>`).join('')}</tr>
<tr>${STREAM_COLUMNS.map((c) => `<th>${esc(c.label)}</th>`).join('')}</tr>`;
  // the words under the table, not in the heading (a heading of three lines)
  return `<h2>Streams <span class="muted">(per phase and endpoint; times in ms)</span></h2>
<table class="data streams" data-rows="${report.streams.length}"><thead>${head}</thead><tbody>${rows}</tbody></table>
<p class="muted" data-stream-term>${esc(STREAM_TERM)}</p>`;
}
