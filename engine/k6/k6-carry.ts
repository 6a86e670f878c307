import { LoadscopeError } from '../../contract/errors.js';
import { frontUsesTls } from '../../contract/servers.js';
import type { Scenario, ServerSpec } from '../../contract/scenario.js';
import { formatPath as pathText } from '../scenario/param-path.js';

// What a k6 script cannot carry: a request's traceparent (k6's points come back without a
// request's own number, so no trace id could be kept with its row). Placeholders, data files,
// flows with extract and think times, and expect's checks all run in k6 as natively
// (k6-templates.ts, k6-runtime-request.ts). export-k6 and --engine k6 refuse such a scenario before
// anything runs, naming the field, so a k6 run never sends other requests than the scenario asks.

/** The first field k6 cannot carry, as one line, or null when k6 can run it all. */
export function k6Refusal(scenario: Scenario): string | null {
  for (const [i, phase] of scenario.phases.entries()) {
    if (phase.traceparent === true) return `${pathText(['phases', i, 'traceparent'])}: k6 does not carry traceparent (its points have no request number to build the trace id from); run it on Loadscope's own driver`;
  }
  return null;
}

/**
 * What a script printed on its own cannot carry: the data files, which k6 opens beside the script
 * (`run --engine k6` writes them there, export-k6 --operator puts them in the ConfigMap).
 */
export function k6StdoutRefusal(scenario: Scenario): string | null {
  if (scenario.data !== undefined && scenario.data.length > 0) return "data: a script printed alone cannot take its data files along; use run --engine k6 (or export-k6 --operator, whose ConfigMap holds them)";
  return null;
}

/**
 * What k6 cannot do for this server's TLS and protocol, as one line, or null. k6 verifies against the
 * system's CAs only (no CA file, so never a bundled server's own certificate), sets no SNI name of its
 * own and speaks no h2c; it does skip verification (insecureSkipTLSVerify), show a client
 * certificate (tlsAuth) and negotiate h2 over TLS by itself.
 */
export function k6ServerRefusal(server: ServerSpec, index: number): string | null {
  const at = (...key: string[]) => pathText(['servers', index, ...key]);
  if (server.architecture !== 'external') {
    const protocol = server.options.protocol;
    if (protocol === 'h2c') return `${at('options', 'protocol')}: k6 does not speak h2c; run it on Loadscope's own driver`;
    if (protocol !== undefined && frontUsesTls(protocol)) return `${at('options', 'protocol')}: k6 cannot be given the bundled server's own certificate to trust (it uses the system's CAs only); run it on Loadscope's own driver`;
    return null;
  }
  if (server.protocol === 'h2c') return `${at('protocol')}: k6 does not speak h2c; run it on Loadscope's own driver`;
  if (server.tls?.ca !== undefined) return `${at('tls', 'ca')}: k6 cannot trust a CA file (it uses the system's CAs only); set tls.insecure, or run it on Loadscope's own driver`;
  if (server.tls?.servername !== undefined) return `${at('tls', 'servername')}: k6 cannot send an SNI name of its own; run it on Loadscope's own driver`;
  return null;
}

/** Throws LS_ERR_BAD_REQUEST with k6ServerRefusal's line. */
export function refuseServerForK6(server: ServerSpec, index: number): void {
  const reason = k6ServerRefusal(server, index);
  if (reason !== null) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `k6 cannot run this scenario: ${reason}`);
}

/** Throws LS_ERR_BAD_REQUEST with k6Refusal's line for the first cell that has one. */
export function refuseForK6(scenarios: readonly Scenario[]): void {
  for (const s of scenarios) {
    const reason = k6Refusal(s);
    if (reason !== null) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `k6 cannot run this scenario: ${reason}`);
  }
}
