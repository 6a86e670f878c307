import { deriveTimes } from '../../../contract/measurement.js';
import { phaseName } from '../../../contract/phase.js';
import type { Phase } from '../../../contract/scenario.js';
import { TRY_LIMITS, type TriedBody, type TriedStep, type TriedTiming } from '../../../contract/try-once.js';
import { isJsonBody } from '../../../contract/variables.js';
import type { RawStep } from '../../driver/try/try-phase.js';
import type { SecretMask } from './mask-secrets.js';

// A tried step as a person reads it (issue 39): headers as sent and received, bodies as text (pretty
// JSON when a JSON body was kept whole) cut at TRY_LIMITS.bodyBytes with the full size said, the
// times a run derives (contract/measurement.ts), and every secret masked (mask-secrets.ts).

const headerOf = (headers: readonly [string, string][], name: string): string | undefined => headers.find(([n]) => n.toLowerCase() === name)?.[1];

const isBinary = (kept: Buffer): boolean => kept.subarray(0, 1024).includes(0);
const typedAs = (contentType: string | undefined): Record<string, string> => (contentType === undefined ? {} : { 'content-type': contentType });

/** Body text with its secrets masked as its type says (JSON fields, form fields, known secrets). */
function maskedText(text: string, contentType: string | undefined, mask: SecretMask): string {
  if (isJsonBody(typedAs(contentType), text)) return mask.json(text);
  return /x-www-form-urlencoded/i.test(contentType ?? '') ? mask.form(text) : mask.hide(text);
}

/** A body's kept bytes (at most TRY_LIMITS.bodyBytes of `bytes`) as shown. */
function shownBody(kept: Buffer, bytes: number, contentType: string | undefined, mask: SecretMask): TriedBody {
  const whole = kept.length === bytes;
  if (isBinary(kept)) return { text: `(binary: ${bytes} bytes)`, bytes, cut: !whole, json: false };
  let text = kept.toString('utf8');
  let json = false;
  if (whole && isJsonBody(typedAs(contentType), text)) {
    try {
      text = JSON.stringify(JSON.parse(text), null, 2);
      json = true;
    } catch {
      // not JSON after all: shown as it came
    }
  }
  text = maskedText(text, contentType, mask);
  // pretty printing may have grown it past the bound
  const cut = !whole || text.length > TRY_LIMITS.bodyBytes;
  return { text: text.length > TRY_LIMITS.bodyBytes ? text.slice(0, TRY_LIMITS.bodyBytes) : text, bytes, cut, json };
}

/** The body as a check reads it (the text as it came, not pretty-printed), masked; null when cut or not text. */
function checkBody(kept: Buffer, bytes: number, contentType: string | undefined, mask: SecretMask): string | null {
  return kept.length !== bytes || isBinary(kept) ? null : maskedText(kept.toString('utf8'), contentType, mask);
}

function shownHeaders(headers: readonly [string, string][], mask: SecretMask): [string, string][] {
  return headers.map(([name, value]) => {
    const shown = mask.value(name, value);
    return [name, shown.length > TRY_LIMITS.headerChars ? `${shown.slice(0, TRY_LIMITS.headerChars)}… (${value.length} chars)` : shown];
  });
}

const ms = (us: number | null): number | null => (us === null || Number.isNaN(us) ? null : Math.round(us) / 1000);
const orNull = (n: number): number | null => (Number.isNaN(n) ? null : n);

function timingOf(raw: RawStep, https: boolean): TriedTiming | null {
  const x = raw.exchange;
  if (x === null) return null;
  const s = x.slot;
  const t = deriveTimes({ intendedUs: s.intended, sentUs: orNull(s.sent), firstByteUs: orNull(s.firstByte), doneUs: x.doneUs, serverProcUs: Number.isNaN(s.stProc) ? null : s.stProc * 1000, serverWaitUs: Number.isNaN(s.stWait) ? null : s.stWait * 1000 });
  return {
    connectMs: ms(x.connectUs),
    handshakeMs: https ? ms(x.handshakeUs) : null,
    beforeSendMs: ms(t.lagUs),
    ttfbMs: ms(t.ttfbUs),
    transferMs: ms(t.transferUs),
    totalMs: ms(t.totalUs) ?? 0,
    serverWaitMs: ms(t.serverWaitUs),
    processingMs: ms(t.processingUs),
  };
}

/** The step as shown, its secrets masked by `mask` (which learns the secrets it meets). */
export function presentStep(raw: RawStep, phase: Phase, mask: SecretMask): TriedStep {
  const req = raw.request;
  const x = raw.exchange;
  const url = req === null ? null : new URL(req.url);
  const request =
    req === null || url === null
      ? null
      : {
          method: req.method,
          url: mask.form(req.url),
          // what undici adds to the template's headers on the wire
          headers: shownHeaders([['host', url.host], ...Object.entries(req.headers), ...(req.body === null ? [] : [['content-length', String(req.body.length)] as [string, string]])], mask),
          body: req.body === null ? null : shownBody(req.body.subarray(0, TRY_LIMITS.bodyBytes), req.body.length, headerOf(Object.entries(req.headers), 'content-type'), mask),
        };
  const response =
    x === null || x.slot.status === 0
      ? null
      : { status: x.slot.status, headers: shownHeaders(x.headers, mask), body: shownBody(x.body, x.slot.bytes, headerOf(x.headers, 'content-type'), mask), checkBody: checkBody(x.body, x.slot.bytes, headerOf(x.headers, 'content-type'), mask) };
  return {
    phaseIndex: raw.phaseIndex,
    stepIndex: raw.stepIndex,
    phaseName: phaseName(phase, raw.phaseIndex),
    name: raw.name,
    path: raw.at,
    notSent: raw.notSent,
    request,
    response,
    timing: timingOf(raw, url?.protocol === 'https:'),
    placeholders: raw.placeholders.map((p) => ({ name: p.name, value: mask.value(p.name, p.value) })),
    extracted: raw.extracted === null ? null : { var: raw.extracted.var, value: raw.extracted.value === null ? null : mask.value(raw.extracted.var, raw.extracted.value) },
    checks: raw.checks.map((c) => ({ ...c, name: mask.hide(c.name), actual: mask.hide(c.actual) })),
    error: raw.error === null ? null : { kind: raw.error.kind, message: mask.hide(raw.error.message) },
    failurePath: raw.failurePath,
  };
}
