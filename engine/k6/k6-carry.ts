import { LoadscopeError } from '../../contract/errors.js';
import { frontUsesTls } from '../../contract/servers.js';
import type { Scenario, ServerSpec } from '../../contract/scenario.js';
import { formatPath as pathText } from '../scenario/param-path.js';

// What a k6 script cannot carry: a request's traceparent (k6's points come back without a
// request's own number, so no trace id could be kept with its row), a Server-Sent Events stream
// (k6 has no SSE client: k6 issue 746; issue 41). Placeholders, data files, flows with extract and
// think times, expect's checks, WebSocket sessions and gRPC calls all run in k6 as natively
// (k6-templates.ts, k6-runtime-request.ts, k6-runtime-stream.ts). export-k6 and --engine k6 refuse
// such a scenario before anything runs, naming the field, so a k6 run never sends other requests
// than the scenario asks.

/** The first field k6 cannot carry, as one line, or null when k6 can run it all. */
export function k6Refusal(scenario: Scenario): string | null {
  for (const [i, phase] of scenario.phases.entries()) {
    if (phase.traceparent === true) return `${pathText(['phases', i, 'traceparent'])}: k6 does not carry traceparent (its points have no request number to build the trace id from); run it on Loadscope's own driver`;
    for (const [j, t] of phase.requests.entries()) {
      const at = pathText(['phases', i, 'requests', j, 'stream', 'protocol']);
      if (t.stream?.protocol === 'sse') return `${at}: k6 has no Server-Sent Events client (k6 issue 746), so it cannot time events; run it on Loadscope's own driver`;
    }
  }
  return null;
}

/** Every request of the scenario is a gRPC call: k6 speaks h2c (gRPC's plaintext) for those alone. */
export function onlyGrpc(scenario: Scenario): boolean {
  return scenario.phases.every((p) => p.requests.every((t) => t.stream?.protocol === 'grpc'));
}

/**
 * What a script printed on its own cannot carry: the data files, which k6 opens beside the script
 * (`run --engine k6` writes them there, export-k6 --operator puts them in the ConfigMap).
 */
export function k6StdoutRefusal(scenario: Scenario): string | null {
  if (scenario.data !== undefined && scenario.data.length > 0) return "data: a script printed alone cannot take its data files along; use run --engine k6 (or export-k6 --operator, whose ConfigMap holds them)";
  return null;
}

/** What a k6-operator's ConfigMap cannot carry: a gRPC template's .proto (k6 loads it from this machine's path). */
export function k6OperatorRefusal(scenario: Scenario): string | null {
  for (const [i, phase] of scenario.phases.entries()) {
    const j = phase.requests.findIndex((t) => t.stream?.protocol === 'grpc');
    if (j >= 0) return `${pathText(['phases', i, 'requests', j, 'stream', 'proto'])}: the operator's ConfigMap does not take the .proto along (k6 loads it from this machine's path); run it with loadscope run --engine k6`;
  }
  return null;
}

/** Where a script goes: run here by Loadscope (which sets k6's environment), or written out for someone to run. */
export type K6ScriptUse = 'run' | 'export';

/**
 * What k6 cannot do for this server's TLS and protocol, as one line, or null. k6 speaks h2c only in
 * its gRPC client (`grpcOnly`: every request of the scenario is a gRPC call). It
 * trusts a CA only through its environment (Go's SSL_CERT_FILE): `run --engine k6` sets it to the
 * bundled server's own certificate or tls.ca, and sends tls.servername as the name k6 connects to
 * (its `hosts` option maps it to the target's address); a script written out carries neither. It
 * skips verification (insecureSkipTLSVerify), shows a client certificate (tlsAuth) and negotiates h2
 * over TLS by ALPN by itself.
 */
export function k6ServerRefusal(server: ServerSpec, index: number, use: K6ScriptUse = 'export', grpcOnly = false): string | null {
  const at = (...key: string[]) => pathText(['servers', index, ...key]);
  const runIt = "run it with loadscope run --engine k6, or on Loadscope's own driver";
  const h2c = (key: string[]) => (grpcOnly ? null : `${at(...key)}: k6 speaks h2c only in its gRPC client, and this scenario sends other requests; run it on Loadscope's own driver`);
  if (server.architecture !== 'external') {
    const protocol = server.options.protocol;
    if (protocol === 'h2c') return h2c(['options', 'protocol']);
    if (use === 'export' && protocol !== undefined && frontUsesTls(protocol)) return `${at('options', 'protocol')}: a script written out cannot carry the bundled server's own certificate (k6 trusts a CA only from its environment's SSL_CERT_FILE); ${runIt}`;
    return null;
  }
  if (server.protocol === 'h2c') return h2c(['protocol']);
  if (use === 'export' && server.tls?.ca !== undefined) return `${at('tls', 'ca')}: a script written out cannot carry a CA file (k6 trusts one only from its environment's SSL_CERT_FILE); set tls.insecure, or ${runIt}`;
  if (use === 'export' && server.tls?.servername !== undefined) return `${at('tls', 'servername')}: a script written out cannot carry an SNI name of its own; ${runIt}`;
  return null;
}

/** Throws LS_ERR_BAD_REQUEST with k6ServerRefusal's line. */
export function refuseServerForK6(server: ServerSpec, index: number, use: K6ScriptUse = 'export', grpcOnly = false): void {
  const reason = k6ServerRefusal(server, index, use, grpcOnly);
  if (reason !== null) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `k6 cannot run this scenario: ${reason}`);
}

/** Throws LS_ERR_BAD_REQUEST with k6Refusal's line for the first cell that has one. */
export function refuseForK6(scenarios: readonly Scenario[]): void {
  for (const s of scenarios) {
    const reason = k6Refusal(s);
    if (reason !== null) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `k6 cannot run this scenario: ${reason}`);
  }
}
