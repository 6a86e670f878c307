import { basename } from 'node:path';
import type { Header, PostData } from 'har-format';
import { z } from 'zod';
import { otherHostsKeptNote } from '../../contract/imported-hosts.js';
import { MAX_EXTRACT_BODY_BYTES } from '../../contract/request-limits.js';
import { remoteHostOf } from '../../contract/scenario.js';
import { readRegularFile } from '../regular-file.js';
import { formatPath } from '../scenario/param-path.js';
import { nestingOverflow } from '../scenario/limits.js';
import { isMethod, type CapturedResponse, type Exchange } from './captured.js';
import { headerNotes, keptHeaders, noHeaderDrops } from './headers.js';
import { journeyOf, type JourneyImport, type JourneyOptions } from './journey.js';
import { badImport, MAX_BODY_BYTES, MAX_HAR_BYTES, MAX_HAR_ENTRIES, shown } from './limits.js';

// `loadscope import-har` and the UI's HAR import: a browser's HAR 1.2 (developer tools, "Save all as
// HAR", or a recording) as a journey (journey.ts): the main host's requests in recorded order, with
// the responses they got (what correlation reads). Static assets and other hosts are left out
// unless asked for, each with a note saying how many.

export interface HarOptions extends Partial<JourneyOptions> {
  /** the host to keep (hostname or host:port); default the most frequent */
  host?: string | undefined;
  allHosts?: boolean;
  includeAssets?: boolean;
}

// Only the fields read are checked (HAR files carry much more); typed by @types/har-format.
const HarHeader: z.ZodType<Header> = z.object({ name: z.string(), value: z.string() });
const HarPostData: z.ZodType<Pick<PostData, 'mimeType' | 'text'> & { params?: { name: string; value?: string | undefined; fileName?: string | undefined }[] | undefined }> = z.object({
  mimeType: z.string(),
  text: z.string().optional(),
  params: z.array(z.object({ name: z.string(), value: z.string().optional(), fileName: z.string().optional() })).optional(),
});
const HarEntry = z.object({
  startedDateTime: z.string().optional(),
  request: z.object({ method: z.string(), url: z.string(), headers: z.array(HarHeader), postData: HarPostData.optional() }),
  response: z
    .object({
      status: z.number().optional(),
      headers: z.array(HarHeader).optional(),
      content: z.object({ mimeType: z.string().optional(), text: z.string().optional(), encoding: z.string().optional() }).optional(),
    })
    .optional(),
  /** Chromium's resource type: document, xhr, fetch, script, image... */
  _resourceType: z.string().optional(),
});
export type HarEntry = z.infer<typeof HarEntry>;
const HarFile = z.object({ log: z.object({ entries: z.array(HarEntry).max(MAX_HAR_ENTRIES, `at most ${MAX_HAR_ENTRIES} entries`) }) });

const ASSET_RESOURCE_TYPES = new Set(['stylesheet', 'script', 'image', 'font', 'media', 'texttrack', 'manifest']);
const ASSET_MIME = /^(image|font|audio|video)\/|^text\/css\b|javascript|^application\/(x-)?font|^application\/vnd\.ms-fontobject|^application\/wasm/i;
const ASSET_EXTENSION = /\.(png|jpe?g|gif|webp|avif|svg|ico|bmp|css|m?js|map|woff2?|ttf|otf|eot|mp4|webm|mp3|ogg|wav|wasm)$/i;

/** A static asset: by Chromium's resource type, the response's MIME type, or the path's extension. */
export function isStaticAsset(entry: HarEntry, url: URL): boolean {
  if (entry._resourceType !== undefined && ASSET_RESOURCE_TYPES.has(entry._resourceType)) return true;
  const mime = entry.response?.content?.mimeType ?? '';
  return ASSET_MIME.test(mime) || ASSET_EXTENSION.test(url.pathname);
}

/** The HAR's parsed JSON, checked; a malformed file is one line naming the JSON path. */
export function parseHar(text: string, name: string): HarEntry[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (nestingOverflow(body) >= 0) throw badImport(`${shown(name)} is nested deeper than a HAR file is`);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (err) {
    // the parser's message quotes the text, which is the user's: only its position is kept
    const at = /position (\d+)/.exec(err instanceof Error ? err.message : '')?.[1];
    throw badImport(`${shown(name)} is not JSON${at === undefined ? '' : ` (at character ${at})`}`);
  }
  const parsed = HarFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.length === 0 ? '(the file)' : formatPath(issue.path);
    throw badImport(`${shown(name)} is not a HAR file: ${path}: ${issue.message.split('\n')[0]}`);
  }
  return parsed.data.log.entries;
}

function bodyOf(post: z.infer<typeof HarPostData> | undefined): string | undefined {
  if (post === undefined) return undefined;
  if (post.text !== undefined) return post.text;
  // a form without its text: encoded the way the browser sent it (a file part cannot be)
  if (post.params !== undefined && post.params.every((p) => p.fileName === undefined)) {
    return new URLSearchParams(post.params.map((p): [string, string] => [p.name, p.value ?? ''])).toString();
  }
  return undefined;
}

/** The response as recorded; its body only as text of at most MAX_EXTRACT_BODY_BYTES (the most a replay's extract reads). */
function responseOf(entry: HarEntry): CapturedResponse | null {
  const r = entry.response;
  if (r === undefined) return null;
  const content = r.content;
  let body: string | null = null;
  const text = content?.text;
  if (text !== undefined && text.length <= MAX_EXTRACT_BODY_BYTES * 2) {
    const decoded = content?.encoding === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text;
    if (Buffer.byteLength(decoded) <= MAX_EXTRACT_BODY_BYTES) body = decoded;
  }
  return { status: r.status ?? 0, headers: r.headers ?? [], body, mimeType: content?.mimeType ?? '' };
}

/** In the order they were sent: by start time where every entry has one (HAR writers mostly list them so). */
function inRecordedOrder(entries: readonly HarEntry[]): readonly HarEntry[] {
  const times = entries.map((e) => (e.startedDateTime === undefined ? NaN : Date.parse(e.startedDateTime)));
  if (times.some((t) => Number.isNaN(t))) return entries;
  return entries.map((e, i) => ({ e, t: times[i]!, i })).sort((a, b) => a.t - b.t || a.i - b.i).map((x) => x.e);
}

const hostMatches = (url: URL, host: string): boolean => url.host === host.toLowerCase() || url.hostname === host.toLowerCase();

/** The journey of a HAR's entries (the file's name only names it in the notes). */
export function harToScenario(recorded: readonly HarEntry[], fileName: string, opts: HarOptions = {}): JourneyImport {
  const entries = inRecordedOrder(recorded);
  const counts = { asset: 0, otherHost: 0, scheme: 0, method: new Map<string, number>(), bigBody: 0, formFile: 0 };
  const candidates: { entry: HarEntry; url: URL }[] = [];
  for (const entry of entries) {
    let url: URL;
    try {
      url = new URL(entry.request.url);
    } catch {
      counts.scheme++;
      continue;
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') counts.scheme++;
    else if (!opts.includeAssets && isStaticAsset(entry, url)) counts.asset++;
    else candidates.push({ entry, url });
  }
  const hostCounts = new Map<string, { origin: URL; n: number }>();
  for (const { url } of candidates) {
    const seen = hostCounts.get(url.origin);
    if (seen) seen.n++;
    else hostCounts.set(url.origin, { origin: new URL(url.origin), n: 1 });
  }
  const byFrequency = [...hostCounts.values()].sort((a, b) => b.n - a.n);
  const main = opts.host === undefined ? byFrequency[0]?.origin : byFrequency.find((h) => hostMatches(h.origin, opts.host!))?.origin;
  if (main === undefined) {
    throw badImport(
      opts.host === undefined
        ? `${shown(fileName)} has no request to import (${entries.length} entries: ${counts.asset} static assets, ${counts.scheme} not http(s)); --include-assets keeps assets`
        : `${shown(fileName)} has no request to ${shown(opts.host)}; its hosts: ${byFrequency.map((h) => h.origin.host).join(', ') || 'none'}`,
    );
  }
  const drops = noHeaderDrops();
  const exchanges: Exchange[] = [];
  for (const { entry, url } of candidates) {
    if (!opts.allHosts && url.origin !== main.origin) {
      counts.otherHost++;
      continue;
    }
    const method = entry.request.method.toUpperCase();
    if (!isMethod(method)) {
      counts.method.set(method, (counts.method.get(method) ?? 0) + 1);
      continue;
    }
    const body = bodyOf(entry.request.postData);
    if (entry.request.postData !== undefined && body === undefined) counts.formFile++;
    if (body !== undefined && Buffer.byteLength(body) > MAX_BODY_BYTES) {
      counts.bigBody++;
      continue;
    }
    // secrets are kept here to be moved to the credentials file (journey.ts), never left inline
    const headers = keptHeaders(entry.request.headers, true, drops);
    const mime = entry.request.postData?.mimeType;
    if (body !== undefined && mime !== undefined && mime !== '' && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['Content-Type'] = mime;
    }
    exchanges.push({ request: { method, url, headers, body }, response: responseOf(entry) });
  }
  if (exchanges.length === 0) throw badImport(`${shown(fileName)} has no request the scenario can send to ${main.host} (methods: ${[...counts.method.keys()].map((m) => shown(m)).join(', ') || 'none'})`);

  const notes: string[] = [];
  if (counts.asset > 0) notes.push(`left out ${counts.asset} static asset request(s) (images, CSS, scripts, fonts, media); --include-assets keeps them`);
  if (counts.otherHost > 0) notes.push(`left out ${counts.otherHost} request(s) to hosts other than ${main.host} (${byFrequency.length - 1} other host(s)); --all-hosts keeps them, --host picks another`);
  if (opts.allHosts && byFrequency.length > 1) notes.push(otherHostsKeptNote(byFrequency.filter((h) => h.origin.origin !== main.origin).map((h) => h.origin.host), main.host));
  if (counts.scheme > 0) notes.push(`left out ${counts.scheme} request(s) that are not http(s) (data:, ws:, blob:, credentials in the URL)`);
  for (const [method, n] of counts.method) notes.push(`left out ${n} ${shown(method, 20)} request(s): a scenario sends GET, POST, PUT, PATCH, DELETE and HEAD`);
  if (counts.bigBody > 0) notes.push(`left out ${counts.bigBody} request(s) with a body over ${MAX_BODY_BYTES / 1024} KiB`);
  if (counts.formFile > 0) notes.push(`${counts.formFile} request(s) uploaded a file the HAR does not hold: sent without a body`);
  notes.push(...headerNotes(drops, true));
  const remote = remoteHostOf(main.origin);
  if (remote !== null) notes.push(`${remote} is not this machine: running it needs --allow-remote`);
  const title = `Imported from ${basename(fileName)}: ${exchanges.length} request(s) to ${main.host} as a journey`;
  return journeyOf(exchanges, main, 'har', title, notes, { correlate: opts.correlate, overLimit: opts.overLimit, credentialsFile: opts.credentialsFile ?? 'credentials.csv' });
}

/**
 * Reads a HAR file and makes its journey: a regular file of at most MAX_HAR_BYTES, or one line
 * saying why not (/dev/zero and a FIFO are refused before a byte is read, not read without end).
 */
export async function importHarFile(path: string, opts: HarOptions = {}): Promise<JourneyImport> {
  const name = basename(path);
  const read = readRegularFile(path, MAX_HAR_BYTES, 'a HAR file');
  if ('refused' in read) throw badImport(`${shown(path, 200)} ${read.refused}`);
  return harToScenario(parseHar(read.text, name), name, opts);
}
