import { LoadscopeError } from '../../contract/errors.js';
import { frontUsesTls } from '../../contract/servers.js';
import type { Scenario, ServerSpec } from '../../contract/scenario.js';
import { isFlow } from '../../contract/flow.js';
import { fixedText, templateFields } from '../../contract/variables.js';
import { formatPath as pathText } from '../scenario/param-path.js';

// What a k6 script cannot carry yet: placeholders, data files, flows, traceparent and expect's checks
// beyond one status and a body substring run only on Loadscope's own driver.
// export-k6 and --engine k6 refuse such a scenario before anything runs, naming the first field, so
// a k6 run never sends fixed text where the scenario asked for varying values.

/** The first field k6 cannot carry, as one line, or null when the scenario is plain. */
export function k6Refusal(scenario: Scenario): string | null {
  if (scenario.data !== undefined && scenario.data.length > 0) return "data: k6 does not carry data files yet; run it on Loadscope's own driver";
  for (const [i, phase] of scenario.phases.entries()) {
    // a flow's steps go in order per user and pass values on: weighted picks would be another load
    if (isFlow(phase)) return `${pathText(['phases', i, 'flow'])}: k6 does not carry flows (journeys) yet; run it on Loadscope's own driver`;
    // k6's rows come back without a request's own number, so no trace id could be kept with its row
    if (phase.traceparent === true) return `${pathText(['phases', i, 'traceparent'])}: k6 does not carry traceparent yet; run it on Loadscope's own driver`;
    if (phase.data !== undefined) return `${pathText(['phases', i, 'data'])}: k6 does not carry data files yet; run it on Loadscope's own driver`;
    for (const [j, t] of phase.requests.entries()) {
      // k6's own check() carries one status code and a body substring, the two keys expect had before
      if (t.expect?.checks !== undefined) return `${pathText(['phases', i, 'requests', j, 'expect', 'checks'])}: k6 does not carry these checks yet; run it on Loadscope's own driver`;
      if (t.expect?.status !== undefined && typeof t.expect.status !== 'number') return `${pathText(['phases', i, 'requests', j, 'expect', 'status'])}: k6 carries one status code, not a list, class or range; run it on Loadscope's own driver`;
      // escaped braces (\{{, an imported request's literal text) are fixed text k6 sends as it is
      const field = templateFields(t).find((f) => fixedText(f.text) === null);
      if (field !== undefined) return `${pathText(['phases', i, 'requests', j, ...field.key])}: k6 does not carry placeholders ({{...}}) yet; run it on Loadscope's own driver`;
    }
  }
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
