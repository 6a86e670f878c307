import { parse, type ParseEntry } from 'shell-quote';
import { remoteHostOf } from '../../contract/scenario.js';
import { isMethod, type CapturedRequest } from './captured.js';
import { headerNotes, keptHeaders, noHeaderDrops } from './headers.js';
import { journeyOf, type JourneyImport, type JourneyOptions } from './journey.js';
import { badImport, MAX_BODY_BYTES, MAX_CURL_CHARS, shown } from './limits.js';

// `loadscope import-curl` and the editor's "Paste a curl command": a curl command line as browsers'
// developer tools copy it (bash quoting, $'...' included, read by shell-quote; nothing is expanded or
// run). The flags that shape the request are read; the rest are named in a note, never fatal.

export interface CurlOptions {
  /** keep secret headers inline (the editor's "add to this scenario", when asked); an import moves them to its credentials file */
  keepSecrets?: boolean;
}

/** One request from a curl command, and notes of what was not carried over. */
export interface CurlRequest {
  request: CapturedRequest;
  notes: string[];
}

type Flag = 'method' | 'header' | 'data' | 'data-raw' | 'data-urlencode' | 'json' | 'user' | 'cookie' | 'user-agent' | 'referer' | 'url' | 'get' | 'head' | 'compressed' | 'insecure' | 'ignore' | 'ignore-value';

const LONG: Record<string, Flag> = {
  '--request': 'method',
  '--header': 'header',
  '--data': 'data',
  '--data-raw': 'data-raw',
  '--data-binary': 'data',
  '--data-ascii': 'data',
  '--data-urlencode': 'data-urlencode',
  '--json': 'json',
  '--user': 'user',
  '--cookie': 'cookie',
  '--user-agent': 'user-agent',
  '--referer': 'referer',
  '--url': 'url',
  '--get': 'get',
  '--head': 'head',
  '--compressed': 'compressed',
  '--insecure': 'insecure',
  // about curl's own output and behaviour, not the request: read and ignored without a note
  '--silent': 'ignore',
  '--show-error': 'ignore',
  '--location': 'ignore',
  '--verbose': 'ignore',
  '--include': 'ignore',
  '--fail': 'ignore',
  '--no-progress-meter': 'ignore',
  '--output': 'ignore-value',
  '--max-time': 'ignore-value',
  '--connect-timeout': 'ignore-value',
  '--write-out': 'ignore-value',
};
const SHORT: Record<string, Flag> = {
  X: 'method', H: 'header', d: 'data', u: 'user', b: 'cookie', A: 'user-agent', e: 'referer', G: 'get', I: 'head', k: 'insecure',
  s: 'ignore', S: 'ignore', L: 'ignore', v: 'ignore', i: 'ignore', f: 'ignore', o: 'ignore-value', m: 'ignore-value', w: 'ignore-value',
};
const TAKES_VALUE = new Set<Flag>(['method', 'header', 'data', 'data-raw', 'data-urlencode', 'json', 'user', 'cookie', 'user-agent', 'referer', 'url', 'ignore-value']);

/** The words of the command: shell operators end it (a pipe into jq is not the request). */
function words(command: string, notes: string[]): string[] {
  if (command.length > MAX_CURL_CHARS) throw badImport(`the curl command is ${command.length} characters; at most ${MAX_CURL_CHARS} are read`);
  // a variable stays as written: nothing is expanded
  const entries: ParseEntry[] = parse(command, (name) => `$${name}`);
  const out: string[] = [];
  for (const entry of entries) {
    if (typeof entry === 'string') out.push(entry);
    else if ('op' in entry && entry.op === 'glob') out.push(entry.pattern);
    else if ('comment' in entry) break;
    else {
      notes.push(`read up to ${shown('op' in entry ? entry.op : '')}: what follows is another command`);
      break;
    }
  }
  return out;
}

/** The request a curl command line sends. */
export function parseCurl(command: string, opts: CurlOptions = {}): CurlRequest {
  const notes: string[] = [];
  const argv = words(command.trim(), notes);
  if (argv.length === 0 || !/^curl(\.exe)?$/i.test(argv[0]!.replace(/^.*[\\/]/, ''))) {
    throw badImport(`not a curl command: it starts with ${shown(argv[0] ?? '')}, not curl`);
  }
  let method: string | undefined;
  const headers: { name: string; value: string }[] = [];
  const data: string[] = [];
  const urls: string[] = [];
  const unknown: string[] = [];
  let json = false;
  let get = false;
  let head = false;
  let insecure = false;
  let fileData = 0;

  const take = (flag: Flag, value: string) => {
    switch (flag) {
      case 'method': method = value.toUpperCase(); break;
      case 'header': {
        const colon = value.indexOf(':');
        const semi = value.indexOf(';');
        // curl: "Name;" sends an empty header, "Name:" removes one (nothing to send)
        if (colon > 0) {
          const v = value.slice(colon + 1).trim();
          if (v !== '') headers.push({ name: value.slice(0, colon).trim(), value: v });
        } else if (semi > 0 && semi === value.length - 1) headers.push({ name: value.slice(0, semi).trim(), value: '' });
        else unknown.push(`-H ${shown(value, 40)}`);
        break;
      }
      case 'data':
      case 'json':
        // curl reads @name from a file: never read here (a pasted command must not reach the disk)
        if (value.startsWith('@')) fileData++;
        else data.push(value);
        if (flag === 'json') json = true;
        break;
      case 'data-raw':
        data.push(value);
        break;
      case 'data-urlencode': {
        const eq = value.indexOf('=');
        data.push(eq < 0 ? encodeURIComponent(value) : `${value.slice(0, eq + 1)}${encodeURIComponent(value.slice(eq + 1))}`);
        break;
      }
      case 'user': headers.push({ name: 'Authorization', value: `Basic ${Buffer.from(value).toString('base64')}` }); break;
      case 'cookie': headers.push({ name: 'Cookie', value }); break;
      case 'user-agent': headers.push({ name: 'User-Agent', value }); break;
      case 'referer': headers.push({ name: 'Referer', value }); break;
      case 'url': urls.push(value); break;
      case 'get': get = true; break;
      case 'head': head = true; break;
      case 'compressed': headers.push({ name: 'Accept-Encoding', value: 'deflate, gzip, br, zstd' }); break;
      case 'insecure': insecure = true; break;
      case 'ignore':
      case 'ignore-value': break;
    }
  };

  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    const next = () => {
      if (i + 1 >= argv.length) throw badImport(`the curl command ends after ${shown(word, 40)}, which takes a value`);
      return argv[++i]!;
    };
    if (word === '') continue; // a line continuation (\ at a line's end)
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const name = eq > 0 ? word.slice(0, eq) : word;
      const flag = LONG[name];
      if (flag === undefined) unknown.push(shown(word, 40));
      else if (TAKES_VALUE.has(flag)) take(flag, eq > 0 ? word.slice(eq + 1) : next());
      else take(flag, '');
    } else if (word.startsWith('-') && word.length > 1) {
      // -sSL (several flags), -XPOST (a flag and its value)
      for (let j = 1; j < word.length; j++) {
        const flag = SHORT[word[j]!];
        if (flag === undefined) {
          unknown.push(shown(`-${word[j]}`));
          continue;
        }
        if (TAKES_VALUE.has(flag)) {
          take(flag, j + 1 < word.length ? word.slice(j + 1) : next());
          break;
        }
        take(flag, '');
      }
    } else urls.push(word);
  }

  if (urls.length === 0) throw badImport('the curl command has no URL');
  if (urls.length > 1) notes.push(`imported the first of ${urls.length} URLs`);
  const text = urls[0]!;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    throw badImport(`the curl command's URL ${shown(text)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badImport(`the curl command's URL is ${url.protocol}; a scenario sends http(s)`);
  if (url.username !== '' || url.password !== '') {
    headers.push({ name: 'Authorization', value: `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}` });
    url.username = '';
    url.password = '';
  }

  let body: string | undefined = data.length > 0 ? data.join('&') : undefined;
  if (get && body !== undefined) {
    url.search = url.search === '' ? `?${body}` : `${url.search}&${body}`;
    body = undefined;
  }
  const has = (name: string) => headers.some((h) => h.name.toLowerCase() === name);
  if (json) {
    if (!has('content-type')) headers.push({ name: 'Content-Type', value: 'application/json' });
    if (!has('accept')) headers.push({ name: 'Accept', value: 'application/json' });
  } else if (body !== undefined && !has('content-type')) headers.push({ name: 'Content-Type', value: 'application/x-www-form-urlencoded' });
  const verb = method ?? (head ? 'HEAD' : body !== undefined ? 'POST' : 'GET');
  if (!isMethod(verb)) throw badImport(`the curl command's method ${shown(verb, 20)} is not one a scenario sends (GET, POST, PUT, PATCH, DELETE, HEAD)`);
  if (body !== undefined && Buffer.byteLength(body) > MAX_BODY_BYTES) throw badImport(`the curl command's body is over ${MAX_BODY_BYTES / 1024} KiB`);

  const drops = noHeaderDrops();
  const kept = keptHeaders(headers, opts.keepSecrets ?? false, drops);
  notes.push(...headerNotes(drops, opts.keepSecrets ?? false));
  if (fileData > 0) notes.push(`left out ${fileData} body part(s) read from a file (@file): paste the body itself`);
  if (insecure) notes.push('the command turned TLS verification off (-k/--insecure); the scenario keeps the default, verification on');
  if (unknown.length > 0) notes.push(`ignored options it does not read: ${[...new Set(unknown)].slice(0, 10).join(', ')}`);
  return { request: { method: verb, url, headers: kept, body }, notes };
}

/** A journey of the one request a curl command sends, against the command's own origin. */
export function curlToScenario(command: string, opts: Partial<JourneyOptions> = {}): JourneyImport {
  // secrets are kept to be moved to the credentials file, never left inline
  const { request, notes } = parseCurl(command, { keepSecrets: true });
  const remote = remoteHostOf(request.url.origin);
  if (remote !== null) notes.push(`${remote} is not this machine: running it needs --allow-remote`);
  const title = `Imported from a curl command: ${request.method} ${request.url.host}${request.url.pathname}`;
  return journeyOf([{ request, response: null }], new URL(request.url.origin), 'curl', title, notes, { correlate: 'none', credentialsFile: opts.credentialsFile ?? 'credentials.csv' });
}
