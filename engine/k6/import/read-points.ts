import { parse as parseCsv } from 'csv-parse';
import { basename } from 'node:path';
import { pipeline, Readable } from 'node:stream';
import { LoadscopeError } from '../../../contract/errors.js';
import { fileBytes, linesOf } from './bounded-input.js';
import { MAX_LINE_BYTES, MIB } from './import-limits.js';
import { parseTimeUs } from './k6-time.js';

// k6's result files, one point at a time, never a whole file (or a whole long line) in memory:
// `--out json` (NDJSON, one object a line; `kubectl logs` of an operator pod mixes in log lines, which
// are counted and skipped) and `--out csv`, either gzipped (detected by its magic bytes, not its name).
// Lines and gzip expansion are bounded (bounded-input.ts, import-limits.ts).

export interface K6Point {
  metric: string;
  /** epoch µs */
  timeUs: number;
  value: number;
  tags: Record<string, string>;
  metadata: Record<string, string>;
  /** the line of its file (CSV: where its record ends); absent for k6's live stdout */
  line?: number;
}

export interface ReadStats {
  points: number;
  /** lines that were not k6 points (logs, banners, a truncated last line) */
  skipped: number;
}

/** The first non-empty line decides: CSV has k6's header, anything else is read as NDJSON. */
async function looksLikeCsv(path: string, name: string): Promise<boolean> {
  for await (const { text } of linesOf(fileBytes(path, name), name)) if (text.trim() !== '') return text.startsWith('metric_name,');
  return false;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): Record<string, string> => {
  const out: Record<string, string> = {};
  if (isRecord(v)) for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
};

/** One NDJSON line as a point, or null for Metric declarations and anything that is not a point. */
export function pointFromJsonLine(line: string): K6Point | null | 'skip' {
  const s = line.trim();
  if (s === '') return null;
  let v: unknown;
  try {
    v = JSON.parse(s);
  } catch {
    return 'skip';
  }
  if (!isRecord(v)) return 'skip';
  if (v.type === 'Metric') return null;
  const data = v.data;
  if (v.type !== 'Point' || typeof v.metric !== 'string' || !isRecord(data) || typeof data.value !== 'number' || typeof data.time !== 'string') return 'skip';
  const timeUs = parseTimeUs(data.time);
  if (timeUs === null) return 'skip';
  return { metric: v.metric, timeUs, value: data.value, tags: strings(data.tags), metadata: strings(data.metadata) };
}

/** `a=1&b=2` (k6's extra_tags and metadata columns) as a record. */
function ampersandPairs(s: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!s) return out;
  for (const pair of s.split('&')) {
    const eq = pair.indexOf('=');
    if (eq > 0) out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

export function pointFromCsvRecord(rec: Record<string, string>): K6Point | 'skip' {
  const { metric_name: metric, timestamp, metric_value: value, extra_tags: extra, metadata, ...columns } = rec;
  const timeUs = timestamp === undefined ? null : parseTimeUs(timestamp);
  const v = Number(value);
  if (!metric || timeUs === null || !Number.isFinite(v)) return 'skip';
  const tags: Record<string, string> = {};
  for (const [k, x] of Object.entries(columns)) if (x !== '') tags[k] = x;
  return { metric, timeUs, value: v, tags: { ...tags, ...ampersandPairs(extra) }, metadata: ampersandPairs(metadata) };
}

interface CsvRow {
  record: Record<string, string>;
  info: { lines: number };
}

function csvRows(path: string, name: string): AsyncIterable<CsvRow> {
  const parser = parseCsv({ columns: true, relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_LINE_BYTES, info: true });
  // pipeline: an error of the bounded input (gzip bomb) reaches the parser, hence the loop reading it
  return pipeline(Readable.from(fileBytes(path, name)), parser, () => undefined) as AsyncIterable<CsvRow>;
}

const csvTooLong = (err: unknown): err is { code: string; lines: number } =>
  typeof err === 'object' && err !== null && 'code' in err && err.code === 'CSV_MAX_RECORD_SIZE';

/** An error of csv-parse (its codes: CSV_..., INVALID_OPENING_QUOTE), with the line it stopped at. */
const csvError = (err: unknown): err is { code: string; lines: number } =>
  typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' && /^(CSV_|INVALID_)/.test(err.code) && 'lines' in err && typeof err.lines === 'number';

/** Every point of one k6 result file, in file order. */
export async function* readPoints(path: string, stats: ReadStats): AsyncGenerator<K6Point> {
  const name = basename(path);
  try {
    if (await looksLikeCsv(path, name)) {
      for await (const { record, info } of csvRows(path, name)) {
        const p = pointFromCsvRecord(record);
        if (p === 'skip') stats.skipped++;
        else {
          stats.points++;
          yield { ...p, line: info.lines };
        }
      }
      return;
    }
    for await (const { text, line } of linesOf(fileBytes(path, name), name)) {
      const p = pointFromJsonLine(text);
      if (p === 'skip') stats.skipped++;
      else if (p !== null) {
        stats.points++;
        yield { ...p, line };
      }
    }
  } catch (err) {
    if (err instanceof LoadscopeError) throw err;
    if (csvTooLong(err)) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `${name} line ${err.lines} is longer than ${MIB(MAX_LINE_BYTES)}, the most one k6 result record may have; nothing was stored`);
    // csv-parse's messages quote the field they stopped at: its code and line say enough
    if (csvError(err)) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `${name} line ${err.lines} is not a CSV record (${err.code}); nothing was stored`);
    const reason = err instanceof Error ? err.message : String(err);
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `cannot read the k6 result file ${name}: ${reason.split('\n')[0]}`);
  }
}
