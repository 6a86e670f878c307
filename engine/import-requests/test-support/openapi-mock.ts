import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { OpenAPIBackend, type Context, type Document } from 'openapi-backend';
import { parse as parseYaml } from 'yaml';

// A mock of no one here's making, driven by a published OpenAPI description: openapi-backend routes
// and validates each request against the description (a request it does not describe, or one that
// breaks its schema, is answered 400 with the validator's errors; a credential the operation's
// security asks for and the request lacks, 401) and answers from the description's examples.
// Wrapped in node:http on 127.0.0.1, port 0. One choice is ours: an operation the description gives
// only error responses (the Petstore's POST /pet has only 405) is answered 200 when the request is
// valid, since the errors it describes did not happen. Two: openapi-backend routes by operationId,
// which OpenAPI leaves optional (postman-to-openapi's descriptions have none), so an operation without
// one is given `<METHOD> <path>` before the description is handed over.

export interface AnsweredRequest {
  operationId: string | null;
  /** the operation answered as the description writes it ("GET /users/{id}"); null when none matched */
  route: string | null;
  status: number;
  /** the validator's first error, when refused */
  error?: string;
}

export interface OpenApiMock {
  /** http://127.0.0.1:PORT */
  url: string;
  answered: AnsweredRequest[];
  close(): Promise<void>;
}

/** A request body is read up to this (a test's requests are small; more is refused 413). */
const MAX_BODY = 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        resolve(null);
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parsedBody(text: string, type: string): unknown {
  if (text === '') return undefined;
  if (/json/i.test(type)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  if (/x-www-form-urlencoded/i.test(type)) return Object.fromEntries(new URLSearchParams(text));
  return text;
}

/** A credential the scheme asks for, present and not empty. */
function hasCredential(scheme: Record<string, unknown>, c: Context): boolean {
  const headers = c.request.headers;
  const header = (name: string): string => {
    const v = headers[name.toLowerCase()];
    return (Array.isArray(v) ? v[0] : v) ?? '';
  };
  if (scheme.type === 'apiKey' && typeof scheme.name === 'string') {
    if (scheme.in === 'header') return header(scheme.name).trim() !== '';
    if (scheme.in === 'query') return String(c.request.query[scheme.name] ?? '').trim() !== '';
    return new RegExp(`(^|;\\s*)${scheme.name}=[^;\\s]`).test(header('cookie'));
  }
  const auth = header('authorization');
  if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'basic') return /^Basic \S+/.test(auth);
  return /^Bearer \S+/.test(auth);
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The description in `file` (JSON or YAML; JSON is YAML), each operation named. */
function withOperationIds(file: string): Document {
  const doc = parseYaml(readFileSync(file, 'utf8'), { maxAliasCount: 100 }) as Document;
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = (item as Record<string, { operationId?: string } | undefined>)[method];
      if (op !== undefined && op.operationId === undefined) op.operationId = `${method.toUpperCase()} ${path}`;
    }
  }
  return doc;
}

/** The mock of the description in `file` (JSON or YAML); `apiRoot`: the path it serves under. */
export async function startOpenApiMock(file: string, opts: { apiRoot?: string } = {}): Promise<OpenApiMock> {
  const answered: AnsweredRequest[] = [];
  const api = new OpenAPIBackend({ definition: withOperationIds(file), apiRoot: opts.apiRoot ?? '/', quick: false, validate: true });
  const send = (res: ServerResponse, c: Context | null, status: number, body: unknown, error?: string) => {
    const op = c?.operation;
    answered.push({ operationId: op?.operationId ?? null, route: op === undefined ? null : `${op.method.toUpperCase()} ${op.path}`, status, ...(error === undefined ? {} : { error }) });
    const text = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  type Handler = (c: Context, req: IncomingMessage, res: ServerResponse) => void;
  const handlers: Record<string, Handler> = {
    validationFail: (c, _req, res) => {
      const first = c.validation.errors?.[0];
      send(res, c, 400, { errors: c.validation.errors }, first === undefined ? 'invalid' : `${first.instancePath} ${first.message ?? ''}`);
    },
    unauthorizedHandler: (c, _req, res) => send(res, c, 401, { error: 'unauthorized' }, 'no credential'),
    notFound: (c, _req, res) => send(res, c, 404, { error: 'not found' }, 'no such operation'),
    methodNotAllowed: (c, _req, res) => send(res, c, 405, { error: 'method not allowed' }, 'method not allowed'),
    notImplemented: (c, _req, res) => {
      const { status, mock } = api.mockResponseForOperation(c.operation.operationId ?? '');
      send(res, c, status >= 200 && status < 300 ? status : 200, mock);
    },
  };
  api.register(handlers);
  await api.init();
  for (const [name, scheme] of Object.entries(api.document.components?.securitySchemes ?? {})) {
    if (!('$ref' in scheme)) api.registerSecurityHandler(name, (c: Context) => hasCredential({ ...scheme }, c));
  }

  const server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      if (text === null) return send(res, null, 413, { error: 'body too large' }, 'body too large');
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = v;
      await api.handleRequest({ method: req.method ?? 'GET', path: url.pathname, query: url.search.slice(1), headers, body: parsedBody(text, req.headers['content-type'] ?? '') }, req, res);
    })().catch((err: unknown) => send(res, null, 500, { error: String(err) }, String(err)));
  });
  // a deadline for every exchange: a client that stops sending cannot hold the server
  server.requestTimeout = 10_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
