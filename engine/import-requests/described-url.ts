import { badImport, oneLine, shown } from './limits.js';

// Where a description's requests go: its server URL (OpenAPI's servers[0], its {variables} at their
// defaults), or the --base-url the person gave instead; and the short lists the notes name.

type Obj = Record<string, unknown>;
const isRecord = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const httpUrl = (text: string): URL | null => {
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '' ? url : null;
};

/** An OpenAPI server object's URL with its variables at their defaults; null when it is not an absolute http(s) URL. */
export function serverUrl(server: Obj): URL | null {
  if (typeof server.url !== 'string') return null;
  const variables = isRecord(server.variables) ? server.variables : {};
  const text = server.url.replace(/\{([^{}]*)\}/g, (whole, name: string) => {
    const v = variables[name];
    if (!isRecord(v)) return whole;
    if (typeof v.default === 'string' || typeof v.default === 'number') return String(v.default);
    return Array.isArray(v.enum) && typeof v.enum[0] === 'string' ? v.enum[0] : whole;
  });
  const url = httpUrl(text);
  return url === null || url.search !== '' || url.hash !== '' ? null : url;
}

/**
 * The --base-url given: an http(s) URL without user:password@, query or fragment; `withPath` false
 * also without a path (a Postman collection's requests keep their own paths).
 */
export function givenBaseUrl(text: string, withPath: boolean): URL {
  const url = httpUrl(text);
  if (url === null) throw badImport(`--base-url ${shown(text)} is not an http(s) URL without user:password@`);
  if (url.search !== '' || url.hash !== '') throw badImport(`--base-url ${shown(text)} has a query or fragment; it is scheme, host, port${withPath ? ' and path' : ''} only`);
  if (!withPath && url.pathname !== '/') throw badImport(`--base-url ${shown(text)} has a path; it is scheme, host and port only (the requests keep their own paths)`);
  return url;
}

/** The first few items and how many more (a note stays one readable line). */
export function listed(items: readonly string[], max = 8): string {
  const shownItems = items
    .slice(0, max)
    .map((item) => oneLine(item))
    .map((item) => (item.length > 80 ? `${item.slice(0, 77)}...` : item))
    .join(', ');
  return items.length > max ? `${shownItems} (and ${items.length - max} more)` : shownItems;
}
