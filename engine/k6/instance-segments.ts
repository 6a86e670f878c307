import { LoadscopeError } from '../../contract/errors.js';
import { MAX_RUN_INSTANCES } from '../../contract/instances.js';

// `run --engine k6 --instances N`: the k6-operator's model on one machine. Each of the N k6
// processes runs the same script with its own execution segment (k6 splits every executor's VUs,
// iterations and arrival rate by it, so the instances' requests add up to the phase's), a tag that
// marks its points, and no thresholds of its own: Loadscope judges them on the merged figures.

/** N, checked: a whole number from 1 to MAX_RUN_INSTANCES, else one line saying so. */
export function checkedInstances(n: number | undefined, given: string = String(n)): number {
  if (n === undefined) return 1;
  if (!Number.isInteger(n) || n < 1 || n > MAX_RUN_INSTANCES) {
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `instances: ${JSON.stringify(given)} is not a whole number from 1 to ${MAX_RUN_INSTANCES} (k6 processes on this machine)`);
  }
  return n;
}

/** The `k6 run` flags of instance i of n (none for a single instance: it runs the whole load). */
export function instanceArgs(i: number, n: number): string[] {
  if (n === 1) return [];
  const at = (k: number) => (k === 0 ? '0' : k === n ? '1' : `${k}/${n}`);
  const sequence = Array.from({ length: n + 1 }, (_, k) => at(k)).join(',');
  return ['--execution-segment', `${at(i)}:${at(i + 1)}`, '--execution-segment-sequence', sequence, '--tag', `ls_instance=${i}`, '--no-thresholds'];
}
