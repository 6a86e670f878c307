import type { TriedBody, TriedStep, TryResult } from '../../contract/try-once.js';
import { terminalSafeInline } from './terminal-safe.js';

// `loadscope try`'s text: one block per step, in the order the user sent them. Every string the
// scenario or the target chose (names, URLs, headers, bodies, messages) is kept on its own line
// (terminalSafeInline: a line feed or a control in it is shown, never acted on); bodies are shown
// line by line, at most BODY_LINES of them (--json has what the try kept).

const BODY_LINES = 40;
const INDENT = '     ';

const line = (text: string): string => terminalSafeInline(text);
const ms = (v: number | null): string | null => (v === null ? null : `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms`);

function bodyLines(what: string, body: TriedBody): string[] {
  const size = body.cut ? `${body.bytes} bytes, cut` : `${body.bytes} bytes`;
  const out = [`${INDENT}${what} (${size}${body.json ? ', JSON' : ''}):`];
  const lines = body.text.split('\n');
  for (const l of lines.slice(0, BODY_LINES)) out.push(`${INDENT}  ${line(l)}`);
  if (lines.length > BODY_LINES) out.push(`${INDENT}  … ${lines.length - BODY_LINES} more lines (--json shows what the try kept)`);
  return out;
}

function headerLines(what: string, headers: readonly [string, string][]): string[] {
  if (headers.length === 0) return [];
  return [`${INDENT}${what}:`, ...headers.map(([name, value]) => `${INDENT}  ${line(name)}: ${line(value)}`)];
}

function timingLine(step: TriedStep): string | null {
  const t = step.timing;
  if (t === null) return null;
  const parts = [
    t.connectMs === null ? 'connection reused' : `connect ${ms(t.connectMs)}`,
    t.handshakeMs === null ? null : `tls ${ms(t.handshakeMs)}`,
    t.beforeSendMs === null ? null : `before sending ${ms(t.beforeSendMs)}`,
    t.ttfbMs === null ? null : `ttfb ${ms(t.ttfbMs)}`,
    t.transferMs === null ? null : `transfer ${ms(t.transferMs)}`,
    `total ${ms(t.totalMs)}`,
    t.serverWaitMs === null ? null : `server wait ${ms(t.serverWaitMs)}`,
    t.processingMs === null ? null : `processing ${ms(t.processingMs)}`,
  ];
  return `${INDENT}time: ${parts.filter((p) => p !== null).join(' · ')}`;
}

function stepBlock(step: TriedStep, number: number): string[] {
  const mark = step.notSent !== null ? '-' : step.error === null ? '✓' : '✗';
  const title = `${mark} ${number}. ${line(step.phaseName)} · ${line(step.name)}`;
  if (step.notSent !== null) return [`${title}: not sent: ${line(step.notSent)}`];
  const req = step.request;
  const res = step.response;
  const head = req === null ? title : `${title}  ${req.method} ${line(req.url)}${res === null ? '' : ` → ${res.status}`}`;
  const out = [head];
  if (step.error !== null) out.push(`${INDENT}FAILED (${step.error.kind}): ${line(step.error.message)}`, `${INDENT}  at ${line(step.failurePath ?? step.path)}`);
  if (step.placeholders.length > 0) out.push(`${INDENT}placeholders: ${step.placeholders.map((p) => `${line(p.name)} = ${line(p.value)}`).join(', ')}`);
  if (req !== null) {
    out.push(...headerLines('request headers', req.headers));
    if (req.body !== null) out.push(...bodyLines('request body', req.body));
  }
  if (res !== null) {
    out.push(...headerLines('response headers', res.headers));
    out.push(...bodyLines('response body', res.body));
  }
  const time = timingLine(step);
  if (time !== null) out.push(time);
  if (step.extracted !== null) out.push(`${INDENT}extracted: ${line(step.extracted.var)} = ${step.extracted.value === null ? '(nothing)' : line(step.extracted.value)}`);
  for (const c of step.checks) out.push(`${INDENT}check ${c.ok ? '✓' : '✗'} ${line(c.name)}: ${line(c.actual)} (${line(c.path)})`);
  return out;
}

/** The try's text for a terminal: a heading, a block per step, and the verdict. */
export function formatTry(result: TryResult): string {
  const out = [`Tried ${line(result.scenario)} once, one user, against ${line(result.server)} at ${line(result.url)} (nothing is stored)`];
  for (const note of result.notes) out.push(`note: ${line(note)}`);
  result.steps.forEach((step, i) => out.push('', ...stepBlock(step, i + 1)));
  const sent = result.steps.filter((s) => s.notSent === null);
  const passed = sent.filter((s) => s.error === null).length;
  const notSent = result.steps.length - sent.length;
  out.push('', `${passed} of ${result.steps.length} step${result.steps.length === 1 ? '' : 's'} passed${notSent > 0 ? `, ${notSent} not sent` : ''}.`);
  return `${out.join('\n')}\n`;
}
