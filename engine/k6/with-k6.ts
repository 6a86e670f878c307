import type { PreparedRun } from '../run/orchestrator.js';
import { K6_MEASUREMENT_NOTE } from './import/import-k6.js';
import { requireK6 } from './k6-binary.js';
import { k6Generator } from './k6-generator.js';
import { onlyGrpc, refuseForK6, refuseServerForK6 } from './k6-carry.js';
import { checkedInstances } from './instance-segments.js';

/**
 * A prepared run whose load a local k6 sends (`instances` k6 processes at once, each with its
 * execution segment); LS_ERR_K6_MISSING (with how to install it) where there is none.
 */
export function withK6(prepared: PreparedRun, instances?: number): PreparedRun {
  const n = checkedInstances(instances);
  refuseForK6(prepared.cells.map((c) => c.scenario));
  // before anything runs: a server's TLS or protocol k6 cannot do
  for (const cell of prepared.cells) cell.scenario.servers.forEach((server, i) => refuseServerForK6(server, i, 'run', onlyGrpc(cell.scenario)));
  const k6 = requireK6();
  return { ...prepared, engine: 'k6', engineNote: K6_MEASUREMENT_NOTE, generator: k6Generator(k6, { parts: [] }, n) };
}
