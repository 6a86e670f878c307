import type { Scenario, ScenarioIssue } from '../../contract/scenario.js';
import { ScenarioInvalidError } from './errors.js';
import type { PreparedScenario } from './prepare.js';

// A GET or HEAD with a body cannot go over HTTP/2 here: undici (the driver's and Try once's h2
// client) ends such a request's stream with its headers and then writes the body to the ended
// stream, so the request never completes; Try once's deadline then destroyed the client with it
// pending, which trips an assertion in undici's session close handler that ends the process. The
// scenario is refused before anything starts, naming the body and the server, as a run and a try
// both prepare it (engine/run/prepare-run.ts).

const speaksH2 = (server: Scenario['servers'][number]): boolean => {
  if (server.architecture === 'external') return server.protocol === 'h2' || server.protocol === 'h2c';
  const protocol = (server.options as { protocol?: string }).protocol;
  return protocol === 'h2' || protocol === 'h2c';
};

/** One issue per GET or HEAD template with a body, where a server of the scenario speaks h2 or h2c. */
function getBodyIssues(scenario: Scenario): ScenarioIssue[] {
  const server = scenario.servers.findIndex(speaksH2);
  if (server < 0) return [];
  return scenario.phases.flatMap((phase, i) =>
    phase.requests.flatMap((t, j) => {
      const method = (t.method ?? 'GET').toUpperCase();
      if (t.stream !== undefined || t.body === undefined || (method !== 'GET' && method !== 'HEAD')) return [];
      return [{ path: `phases[${i}].requests[${j}].body`, message: `a ${method} with a body cannot be sent over HTTP/2 (servers[${server}] speaks it): the client ends a ${method}'s stream with its headers; send it as POST, or leave the body out` }];
    }),
  );
}

/** Throws ScenarioInvalidError where a GET or HEAD with a body would go to an HTTP/2 server (the scenario's or a matrix cell's). */
export function refuseGetBodiesOverH2(prepared: PreparedScenario, sourceName: string): void {
  const seen = new Set<string>();
  const issues = [prepared.scenario, ...prepared.cells.map((c) => c.scenario)].flatMap(getBodyIssues).filter((issue) => {
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (issues.length > 0) throw new ScenarioInvalidError(sourceName, issues);
}
