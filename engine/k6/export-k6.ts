import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve as resolvePath } from 'node:path';
import { LoadscopeError } from '../../contract/errors.js';
import type { Scenario, ServerSpec } from '../../contract/scenario.js';
import { outsideOwnFolders } from '../run/consent-files.js';
import { checkExportTarget } from './k6-target.js';
import { loadScenario } from '../scenario/index.js';
import { resolveGrpcProtos } from '../scenario/grpc-protos.js';
import { readDataFiles } from '../scenario/data-files.js';
import { k6Script } from './k6-script.js';
import { k6OperatorRefusal, k6StdoutRefusal, onlyGrpc, refuseForK6 } from './k6-carry.js';
import { k6TlsFor } from './k6-tls.js';
import { k6Thresholds } from './k6-thresholds.js';
import { DATA_DIR, k8sName, operatorYaml } from './k6-operator.js';
import { operatorDataFiles, operatorRowFiles } from './k6-operator-data.js';
import { k6DataFiles } from './k6-data.js';

export interface ExportK6Options {
  quick?: boolean;
  set?: Record<string, string>;
  /** matrix cell, default 0 */
  cell?: number;
  /** server index in the scenario, default 0 */
  server?: number;
  /** the script's default target; must be on this machine (LOADSCOPE_TARGET overrides it at run time) */
  target?: string;
  /** --operator N: the k6-operator ConfigMap + TestRun YAML with this parallelism, instead of the script */
  operator?: number;
  /** for --operator: the URL the pods send to inside the cluster (Loadscope itself sends nothing there) */
  clusterTarget?: string;
  /** --allow-remote: the script may send outside this machine (no k6 address block list) */
  allowRemote?: boolean;
  /** --allow-files: the client certificate and key (and, for --operator, the data files) may be copied from outside the scenario's folder */
  allowFiles?: boolean;
}

/** Where a bundled server listens when the script is run by hand: `loadscope serve <arch> --port 8080`. */
export const DEFAULT_TARGET = 'http://127.0.0.1:8080';

function bad(message: string): LoadscopeError {
  return new LoadscopeError('LS_ERR_BAD_REQUEST', message);
}

/** The server and cell of a loaded scenario that a script is made for. */
export function pickTarget(cells: readonly { index: number; scenario: Scenario }[], cellIndex: number, serverIndex: number) {
  const cell = cells[cellIndex];
  if (!cell) throw bad(`--cell ${cellIndex}: the scenario has ${cells.length} cell(s), numbered from 0`);
  const server = cell.scenario.servers[serverIndex];
  if (!server) throw bad(`--server ${serverIndex}: the scenario has ${cell.scenario.servers.length} server(s), numbered from 0`);
  return { cell, server, label: server.label ?? server.architecture };
}

/**
 * The script carries the client certificate's key as text (tlsAuth): a shared scenario naming
 * ~/.ssh/id_rsa or another folder's key must not have it copied into a file the person then hands
 * on, unasked. Files of the scenario's own folder (and the package's) need no consent, as in a run
 * (engine/run/consent-files.ts).
 */
function refuseOutsideFiles(server: ServerSpec, base: string | null, allowFiles: boolean): void {
  if (server.architecture !== 'external' || server.tls === undefined || allowFiles) return;
  const named = [server.tls.cert, server.tls.key].filter((f): f is string => f !== undefined);
  const outside = outsideOwnFolders(named.map((f) => (isAbsolute(f) || base === null ? f : resolvePath(base, f))), base);
  if (outside.length === 0) return;
  throw new LoadscopeError('LS_ERR_NEEDS_CONSENT', `this script would carry files from outside the scenario's folder: ${outside.map((f) => JSON.stringify(f)).join(', ')} (tls.cert / tls.key, copied in as text); pass --allow-files`);
}

/** `loadscope export-k6`: a k6 script (or the operator's YAML) for one server of one cell. */
export function exportK6(ref: string, opts: ExportK6Options = {}): string {
  const found = loadScenario(ref, { quick: opts.quick ?? false, set: opts.set ?? {} });
  // tls.cert, tls.key and a gRPC template's .proto are relative to the scenario's file, as when it runs
  const base = existsSync(ref) ? dirname(resolvePath(ref)) : null;
  const loaded = resolveGrpcProtos(found, dirname(resolvePath(found.path)), found.path);
  const { cell, server, label } = pickTarget(loaded.cells, opts.cell ?? 0, opts.server ?? 0);
  refuseForK6([cell.scenario]);
  const alone = opts.operator === undefined ? k6StdoutRefusal(cell.scenario) : k6OperatorRefusal(cell.scenario);
  if (alone !== null) throw bad(`k6 cannot run this scenario: ${alone}`);
  refuseOutsideFiles(server, base, opts.allowFiles ?? false);
  const tls = k6TlsFor(server, opts.server ?? 0, base, 'export', undefined, onlyGrpc(cell.scenario));
  // Only this machine (a cluster's target goes in --cluster-target with --operator).
  const target = checkExportTarget(opts.target ?? (server.architecture === 'external' ? server.url : DEFAULT_TARGET));
  const { thresholds, notes } = k6Thresholds(cell.scenario, [label, server.architecture]);
  const allowRemote = opts.allowRemote ?? false;
  if (opts.operator !== undefined) {
    if (opts.clusterTarget !== undefined && !/^https?:\/\/[^/]/.test(opts.clusterTarget)) throw bad(`--cluster-target ${JSON.stringify(opts.clusterTarget)}: must be an http(s) URL`);
    // The pods send to the cluster's address, which the block list of a script without consent refuses.
    if (opts.clusterTarget !== undefined && !allowRemote) {
      throw new LoadscopeError('LS_ERR_NEEDS_CONSENT', `--cluster-target sends load outside this machine (from the runner pods); pass --allow-remote`);
    }
  }
  // the rows as a run reads them (k6-data.ts): the script's slots know their columns; for the operator
  // the runners read them from the ConfigMaps mounted at DATA_DIR
  const data = (cell.scenario.data ?? []).length > 0 ? readDataFiles(cell.scenario, [cell], base, ref) : [];
  const dataDir = opts.operator === undefined ? {} : { dataDir: DATA_DIR };
  const script = k6Script(cell.scenario, { target, cell: cell.index, server: label, thresholds, thresholdNotes: notes, allowRemote, data, ...(tls && { tls }), ...dataDir });
  if (opts.operator === undefined) return script;
  const name = k8sName(`loadscope-${cell.scenario.name}${loaded.cells.length > 1 ? `-c${cell.index}` : ''}`);
  const dataFiles = operatorRowFiles(operatorDataFiles(cell.scenario, dirname(loaded.path), opts.allowFiles ?? false), k6DataFiles(cell.scenario, data));
  return operatorYaml({ parallelism: opts.operator, name, target: opts.clusterTarget, dataFiles }, script);
}
