import { parse as parseCsv } from 'csv-parse';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { LoadscopeError } from '../../../contract/errors.js';
import { parseTimeUs } from './k6-time.js';

// k6's result files, one point at a time, never a whole file in memory: `--out json` (NDJSON, one
// object a line; `kubectl logs` of an operator pod mixes in log lines, which are counted and skipped)
// and `--out csv`, either gzipped (detected by its magic bytes, not its name).

export interface K6Point {
  metric: string;
  /** epoch µs */
  timeUs: number;
  value: number;
  tags: Record<string, string>;
  metadata: Record<string, string>;
}

export interface ReadStats {
  points: number;
  /** lines that were not k6 points (logs, banners, a truncated last line) */
  skipped: number;
}

async function isGzip(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const { bytesRead, buffer } = await fh.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

async function openText(path: string): Promise<Readable> {
  const raw = createReadStream(path);
  return (await isGzip(path)) ? raw.pipe(createGunzip()) : raw;
}

/** The first non-empty line decides: CSV has k6's header, anything else is read as NDJSON. */
async function looksLikeCsv(path: string): Promise<boolean> {
  const input = await openText(path);
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) if (line.trim() !== '') return line.startsWith('metric_name,');
    return false;
  } finally {
    lines.close();
    input.destroy();
  }
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

/** Every point of one k6 result file, in file order. */
export async function* readPoints(path: string, stats: ReadStats): AsyncGenerator<K6Point> {
  try {
    if (await looksLikeCsv(path)) {
      const records = (await openText(path)).pipe(parseCsv({ columns: true, relax_column_count: true, skip_empty_lines: true }));
      for await (const rec of records as AsyncIterable<Record<string, string>>) {
        const p = pointFromCsvRecord(rec);
        if (p === 'skip') stats.skipped++;
        else {
          stats.points++;
          yield p;
        }
      }
      return;
    }
    const lines = createInterface({ input: await openText(path), crlfDelay: Infinity });
    for await (const line of lines) {
      const p = pointFromJsonLine(line);
      if (p === 'skip') stats.skipped++;
      else if (p !== null) {
        stats.points++;
        yield p;
      }
    }
  } catch (err) {
    if (err instanceof LoadscopeError) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `cannot read the k6 result file ${path}: ${reason}`);
  }
}
