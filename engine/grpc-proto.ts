import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { MethodDefinition, PackageDefinition } from '@grpc/proto-loader';
import { regularFileRefusal } from './regular-file.js';

// The one reader of a gRPC template's .proto (the scenario's validation and the driver's gRPC
// transport both ask here): the file beside the scenario, bounded, parsed by @grpc/proto-loader, and
// the named method found in it, unary or server-streaming. Anything else is one line saying why, for
// the scenario error that names the template's JSON path. Imports resolve from the file's folder.

/** @grpc/proto-loader (and protobufjs under it), loaded only by a scenario with a gRPC template: about 50 ms and 10 MB a process otherwise. */
const protoLoader = (): typeof import('@grpc/proto-loader') => createRequire(import.meta.url)('@grpc/proto-loader') as typeof import('@grpc/proto-loader');

/** A service definition is a few KiB; a file far past this is not one. */
export const PROTO_MAX_BYTES = 1024 * 1024;

/** 'package.Service/Method', as a template names it. */
export const GRPC_METHOD_PATTERN = /^[A-Za-z_][\w.]*\/[A-Za-z_]\w*$/;

export interface GrpcMethod {
  /** '/package.Service/Method', as it goes on the wire */
  readonly path: string;
  /** a server-streaming method (else unary) */
  readonly streaming: boolean;
  /** a request message from its JSON value (proto3 JSON's field names); throws on a value its type refuses */
  serialize(message: unknown): Buffer;
}

export type GrpcMethodLookup = { method: GrpcMethod } | { refused: string };

function isService(value: unknown): value is Record<string, MethodDefinition<object, object>> {
  if (value === null || typeof value !== 'object' || 'format' in value) return false;
  return Object.values(value).every((m) => typeof m === 'object' && m !== null && 'requestSerialize' in m);
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'error';
}

/** The package definition of the .proto at `protoPath` (absolute), or why it cannot be read or parsed. */
function loadProto(protoPath: string): { definition: PackageDefinition } | { refused: string } {
  const refused = regularFileRefusal(protoPath, PROTO_MAX_BYTES, 'a .proto file');
  if (refused !== null) return { refused: `${protoPath} ${refused}` };
  try {
    return { definition: protoLoader().loadSync(protoPath, { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true, includeDirs: [dirname(protoPath)] }) };
  } catch (err) {
    // the parser's words quote the file (it may be any file): say only where it stopped
    const line = /line (\d+)/.exec(firstLine(err))?.[1];
    return { refused: `${protoPath} is not a .proto file grpc can read${line === undefined ? '' : ` (stopped at line ${line})`}` };
  }
}

/** `method` ('package.Service/Method') of the .proto at `protoPath`, or one line saying why not. */
export function grpcMethodOf(protoPath: string, method: string): GrpcMethodLookup {
  if (!GRPC_METHOD_PATTERN.test(method)) return { refused: `'${method}' is not 'package.Service/Method'` };
  const loaded = loadProto(protoPath);
  if ('refused' in loaded) return loaded;
  const [serviceName, methodName] = method.split('/') as [string, string];
  const service = loaded.definition[serviceName];
  if (!isService(service)) {
    const services = Object.entries(loaded.definition).filter(([, v]) => isService(v)).map(([k]) => k);
    return { refused: `${protoPath} has no service '${serviceName}'${services.length > 0 ? `; it has ${services.slice(0, 5).join(', ')}` : ''}` };
  }
  const m = service[methodName];
  if (m === undefined) return { refused: `service '${serviceName}' has no method '${methodName}'; it has ${Object.keys(service).slice(0, 8).join(', ')}` };
  if (m.requestStream) return { refused: `'${method}' streams its requests; only unary and server-streaming methods are supported` };
  return { method: { path: m.path, streaming: m.responseStream, serialize: (message) => m.requestSerialize(message as object) } };
}
