import type pc from 'postman-collection';
import { dataPlaceholder } from './data-columns.js';
import { headerVerdict } from './headers.js';
import { pairsTemplate, rawJsonTemplate } from './postman-literal-credentials.js';
import type { PostmanVariables } from './postman-template.js';
import { encodeComponent } from './url-encode.js';

// A Postman request's headers, auth and body as templates. A credential (its auth, a secret header
// or a body's password written literally) moves to the data file, its column named in a note; a body the scenario cannot
// send (a file) leaves the request out with the reason.

type Obj = Record<string, unknown>;
const isRecord = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/g;
const noControl = (s: string): string => s.replace(CONTROL, ' ');

/** Credentials moved to the data file (column -> what it holds), and auth types not sent. */
export interface Credentials {
  columns: Map<string, string>;
  unsupported: Set<string>;
}

const RAW_TYPES: Record<string, string> = { json: 'application/json', xml: 'application/xml', html: 'text/html', javascript: 'application/javascript', text: 'text/plain' };
const BOUNDARY = 'loadscope-form-boundary';

const enabled = (list: { all(): unknown } | undefined): Obj[] => ((list?.all() ?? []) as unknown[]).filter((p): p is Obj => isRecord(p) && p.disabled !== true);

/** The body as a template with its content type; undefined for none; a string: why it cannot be sent. */
export function postmanBody(body: pc.RequestBody | undefined, vars: PostmanVariables, credentials: Credentials): { text: string; contentType?: string } | undefined | string {
  if (body === undefined || body.disabled === true) return undefined;
  const moved = (column: string, what: string) => credentials.columns.set(column, what);
  switch (body.mode) {
    case 'raw': {
      if (typeof body.raw !== 'string' || body.raw === '') return undefined;
      const options: unknown = body.options;
      const language = isRecord(options) && isRecord(options.raw) ? text(options.raw.language) : '';
      const contentType = RAW_TYPES[language];
      const json = language === 'json' || (language === '' && /^\s*\{/.test(body.raw));
      return { text: json ? rawJsonTemplate(body.raw, vars, moved) : vars.template(body.raw), ...(contentType === undefined ? {} : { contentType }) };
    }
    case 'urlencoded': {
      const pairs = enabled(body.urlencoded).map((p) => ({ key: text(p.key), value: text(p.value) }));
      return pairs.length === 0 ? undefined : { text: pairsTemplate(pairs, { prefix: 'body', what: 'a form body' }, vars, moved, encodeComponent, encodeComponent), contentType: 'application/x-www-form-urlencoded' };
    }
    case 'formdata': {
      const params = enabled(body.formdata);
      if (params.some((p) => p.type === 'file')) return 'file upload';
      if (params.length === 0) return undefined;
      const parts = params.map((p) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${noControl(text(p.key)).replaceAll('"', '%22')}"\r\n\r\n${vars.template(text(p.value))}\r\n`);
      return { text: `${parts.join('')}--${BOUNDARY}--\r\n`, contentType: `multipart/form-data; boundary=${BOUNDARY}` };
    }
    case 'graphql': {
      const graphql: unknown = body.graphql;
      if (!isRecord(graphql)) return undefined;
      const variables = text(graphql.variables).trim();
      return { text: `{"query":${vars.template(JSON.stringify(text(graphql.query)))},"variables":${variables === '' ? '{}' : vars.template(variables)}}`, contentType: 'application/json' };
    }
    case 'file':
      return 'file upload';
    default:
      return body.mode ? `${body.mode} body` : undefined;
  }
}

export interface HeaderParts {
  headers: Record<string, string>;
  /** query pairs an API key in the query adds */
  query: string[];
}

/** The request's headers and its (inherited) auth; a string: why it cannot be sent. */
export function postmanHeaders(request: pc.Request, auth: pc.RequestAuth | undefined, vars: PostmanVariables, credentials: Credentials): HeaderParts {
  const out: HeaderParts = { headers: {}, query: [] };
  /** A credential's text: its variable's column, or (written literally) a column of its own. */
  const secret = (raw: string, preferred: string, what: string): string | null => {
    const resolved = vars.resolve(raw);
    // an undefined variable: its own (empty) column, to fill in
    if (resolved === null) return vars.template(raw, noControl);
    const column = vars.columns.secret(preferred, resolved);
    if (column === null) return null;
    credentials.columns.set(column, what);
    return dataPlaceholder(column);
  };

  for (const h of enabled(request.headers)) {
    const name = text(h.key);
    const value = text(h.value);
    const verdict = headerVerdict(name, noControl(value));
    if (verdict === 'framing' || verdict === 'invalid') continue;
    if (verdict === 'secret') {
      const placeholder = secret(value, `header.${name}`, `the ${name} header`);
      if (placeholder !== null) out.headers[name] = placeholder;
    } else out.headers[name] = vars.template(value, noControl);
  }

  // the type is read by name: the SDK's types leave it out
  const type = auth === undefined ? 'noauth' : text(Reflect.get(auth, 'type'));
  if (auth === undefined || type === 'noauth' || type === '') return out;
  const params: Obj = {};
  for (const p of auth.parameters().all() as unknown[]) if (isRecord(p) && typeof p.key === 'string') params[p.key] = p.value;
  const put = (name: string, value: string | null) => {
    if (value !== null) out.headers[name] = value;
  };
  switch (type) {
    case 'bearer': {
      const token = secret(text(params.token), 'auth.bearer', 'the bearer token');
      put('Authorization', token === null ? null : `Bearer ${token}`);
      break;
    }
    case 'oauth2': {
      const token = secret(text(params.accessToken), 'auth.oauth2', 'the OAuth 2 access token');
      put('Authorization', token === null ? null : `${noControl(text(params.headerPrefix) || 'Bearer')} ${token}`);
      break;
    }
    case 'basic': {
      const user = vars.resolve(text(params.username)) ?? '';
      const password = vars.resolve(text(params.password)) ?? '';
      const column = vars.columns.secret('auth.basic', Buffer.from(`${user}:${password}`).toString('base64'));
      if (column !== null) credentials.columns.set(column, 'the Base64 of user:password');
      put('Authorization', column === null ? null : `Basic ${dataPlaceholder(column)}`);
      break;
    }
    case 'apikey': {
      const key = text(params.key) || 'api_key';
      const value = secret(text(params.value), `auth.${key}`, `the API key ${key}`);
      if (value === null) break;
      if (text(params.in) === 'query') out.query.push(`${vars.template(key, encodeComponent)}=${value}`);
      else if (headerVerdict(key, '') !== 'invalid') out.headers[key] = value;
      break;
    }
    default:
      credentials.unsupported.add(type);
  }
  return out;
}
