import { isAbsolute, resolve } from 'node:path';
import type { Scenario, ScenarioIssue } from '../../contract/scenario.js';
import { hasPlaceholders } from '../../contract/variables.js';
import { grpcMethodOf } from '../grpc-proto.js';
import type { DataBase } from './data-files.js';
import { ScenarioInvalidError } from './errors.js';
import type { PreparedScenario } from './prepare.js';

// A gRPC template's .proto names a file relative to the scenario's file, as data and TLS files do:
// made absolute when the run is prepared, and read there once (engine/grpc-proto.ts: bounded, its
// method found, unary or server-streaming), so a missing file, a method it lacks or a message its
// type refuses is a scenario error naming its JSON path before any load. The driver reads the same
// file again by its absolute path (transport/grpc.ts).

/** what grpc-js takes as a metadata key (its Metadata.add refuses anything else) */
const METADATA_NAME = /^[0-9a-z_.-]+$/;

function issuesOf(scenario: Scenario, base: DataBase, issues: ScenarioIssue[] | null): Scenario {
  const phases = scenario.phases.map((phase, i) => ({
    ...phase,
    requests: phase.requests.map((t, j) => {
      const stream = t.stream;
      if (stream?.protocol !== 'grpc') return t;
      const at = `phases[${i}].requests[${j}]`;
      const file = stream.proto;
      if (!isAbsolute(file) && base === null) {
        issues?.push({ path: `${at}.stream.proto`, message: `'${file}' is relative, and this scenario has no folder to start from (run it from its file, or give an absolute path)` });
        return t;
      }
      // its headers are the call's metadata: names grpc takes (lower case after folding, no binary -bin values)
      for (const name of Object.keys(t.headers)) {
        if (!METADATA_NAME.test(name.toLowerCase()) || name.toLowerCase().endsWith('-bin')) issues?.push({ path: `${at}.headers.${name}`, message: "a gRPC call's headers are its metadata: a name is letters, digits, '-', '_' and '.', and not a binary '-bin' one" });
      }
      const full = base === null ? file : resolve(base, file);
      const found = grpcMethodOf(full, t.path.slice(1));
      if ('refused' in found) {
        issues?.push({ path: found.refused.startsWith(full) ? `${at}.stream.proto` : `${at}.path`, message: found.refused });
        return { ...t, stream: { ...stream, proto: full } };
      }
      // a message without placeholders is encoded once here; one with them, per request (its values may fail then)
      const message = t.body === undefined ? '{}' : hasPlaceholders(t.body) ? null : t.body;
      if (message !== null) {
        let value: unknown;
        try {
          value = JSON.parse(message);
        } catch {
          issues?.push({ path: `${at}.body`, message: 'a gRPC message is JSON text (proto3 field names), and this is not JSON' });
          return { ...t, stream: { ...stream, proto: full } };
        }
        try {
          found.method.serialize(value);
        } catch (err) {
          issues?.push({ path: `${at}.body`, message: `is not a ${t.path.slice(1)} request message: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}` });
        }
      }
      return { ...t, stream: { ...stream, proto: full } };
    }),
  }));
  return { ...scenario, phases };
}

/** A server a gRPC scenario cannot reach over HTTP/2 (a bundled server over HTTP/1.1; an external http:// one not said to speak h2c): one issue each. */
function serverIssues(scenario: Scenario): ScenarioIssue[] {
  if (!scenario.phases.some((p) => p.requests.some((t) => t.stream?.protocol === 'grpc'))) return [];
  return scenario.servers.flatMap((server, i) => {
    if (server.architecture === 'external') {
      // its readiness is asked in the protocol the load offers, and a gRPC server answers HTTP/2 only
      if (server.url.startsWith('https:') || server.protocol === 'h2c') return [];
      return [{ path: `servers[${i}].protocol`, message: "a gRPC server answers HTTP/2 only: give this http:// server protocol 'h2c', so its readiness is asked over HTTP/2" }];
    }
    const protocol = (server.options as { protocol?: string }).protocol ?? 'h1';
    if (protocol === 'h2' || protocol === 'h2c') return [];
    return [{ path: `servers[${i}].options.protocol`, message: `gRPC needs HTTP/2, and this server speaks ${protocol === 'h1' ? 'HTTP/1.1' : 'HTTPS/1.1'}: give it protocol 'h2c' (or 'h2' over TLS)` }];
  });
}

/** The prepared scenario with its gRPC .proto paths absolute; throws ScenarioInvalidError for one that does not serve its template. */
export function resolveGrpcProtos<P extends PreparedScenario>(prepared: P, base: DataBase, sourceName: string): P {
  const issues: ScenarioIssue[] = serverIssues(prepared.scenario);
  const scenario = issuesOf(prepared.scenario, base, issues);
  // cells carry the same phases (or a matrix's variants): their issues would repeat the scenario's
  const cells = prepared.cells.map((cell) => ({ ...cell, scenario: issuesOf(cell.scenario, base, null) }));
  if (issues.length > 0) throw new ScenarioInvalidError(sourceName, issues);
  return { ...prepared, scenario, cells };
}
