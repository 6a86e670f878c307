import { LoadscopeError } from '../../contract/errors.js';
import { yamlStream, type YamlValue } from './k8s-yaml.js';

// The k6-operator's TestRun (k6.io/v1alpha1) for a generated script, the ConfigMap holding the
// script, and one ConfigMap per data file. The operator splits the scenarios across `parallelism`
// runner pods with k6's execution segments, so the pods' request counts add up to the scenario's.
// Each runner writes its points as NDJSON to stdout (k6's JSON output writes to stdout when the file
// name is "-"), so `kubectl logs` of each pod is a file `loadscope import-k6` reads (it skips non-JSON
// lines); the script tags every point with the runner's instance (`ls_instance`, from its segment).
//
//   ConfigMap <name>          script.js                   -> /test/script.js   (the operator mounts it)
//   ConfigMap <name>-data-<i> binaryData data-<i>         -> /loadscope-data/<the file's base name>
//   TestRun   <name>          runners and initializer mount the data ConfigMaps as one projected volume
//
// Why a ConfigMap per data file: the API server refuses a ConfigMap over 1 MiB (its data together),
// so one per file lets each file have that much; a bigger file is refused in one line (put it on a
// volume of your own). Why binaryData: base64 carries the bytes exactly, with no YAML reading to
// get wrong (CRLF, a BOM, U+2028 in a CSV). Why the initializer mounts them too: it runs `k6
// archive` on the script, whose init code opens the data files.

export interface OperatorDataFile {
  /** the scenario's data[] index */
  index: number;
  /** its file name in DATA_DIR (the base name the script opens) */
  name: string;
  bytes: Uint8Array;
}

export interface OperatorOptions {
  /** runner pods */
  parallelism: number;
  /** metadata.name of the TestRun and the script's ConfigMap (a DNS-1123 name) */
  name: string;
  /** the base URL the pods send to (inside the cluster); becomes LOADSCOPE_TARGET */
  target?: string;
  namespace?: string;
  /** the scenario's data files, each in a ConfigMap of its own (k6-operator-data.ts reads them) */
  dataFiles?: readonly OperatorDataFile[];
}

export const SCRIPT_FILE = 'script.js';
/** Where the runners find the data files: the script builder's data folder for an operator script. */
export const DATA_DIR = '/loadscope-data';
/** The API server's bound on a ConfigMap's data (core.MaxSecretSize): 1 MiB. */
export const CONFIGMAP_MAX_BYTES = 1024 * 1024;
/** Runner pods at most: each tags its points with its instance, and an import keeps 256 instances. */
export const MAX_RUNNERS = 256;

const DATA_VOLUME = 'loadscope-data';

/** A valid Kubernetes object name from anything. */
export function k8sName(s: string): string {
  const n = s.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 50);
  return n || 'loadscope';
}

const dataMapName = (o: OperatorOptions, f: OperatorDataFile) => `${o.name}-data-${f.index}`;
const dataKey = (f: OperatorDataFile) => `data-${f.index}`;
const meta = (o: OperatorOptions, name: string) => ({ name, ...(o.namespace ? { namespace: o.namespace } : {}), labels: { 'app.kubernetes.io/created-by': 'loadscope' } });

/** The data ConfigMaps as one volume, and where it is mounted: for the runners and the initializer alike. */
function dataMounts(o: OperatorOptions): Record<string, YamlValue> {
  const files = o.dataFiles ?? [];
  if (files.length === 0) return {};
  const sources = files.map((f) => ({ configMap: { name: dataMapName(o, f), items: [{ key: dataKey(f), path: f.name }] } }));
  return {
    volumes: [{ name: DATA_VOLUME, projected: { sources } }],
    volumeMounts: [{ name: DATA_VOLUME, mountPath: DATA_DIR, readOnly: true }],
  };
}

export function testRunObject(o: OperatorOptions): Record<string, YamlValue> {
  if (!Number.isInteger(o.parallelism) || o.parallelism < 1 || o.parallelism > MAX_RUNNERS) {
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `--operator ${o.parallelism}: the parallelism must be a whole number from 1 to ${MAX_RUNNERS}`);
  }
  const env = o.target === undefined ? [] : [{ name: 'LOADSCOPE_TARGET', value: o.target }];
  const mounts = dataMounts(o);
  const runner = { ...(env.length > 0 ? { env } : {}), ...mounts };
  return {
    apiVersion: 'k6.io/v1alpha1',
    kind: 'TestRun',
    metadata: meta(o, o.name),
    spec: {
      parallelism: o.parallelism,
      script: { configMap: { name: o.name, file: SCRIPT_FILE } },
      // each element goes to k6 as written: points to stdout, no summary or banner among them.
      // --no-thresholds: a runner sees only its segment's share (a count threshold would fail on
      // every runner); Loadscope judges the thresholds on the merged runners when it imports them.
      // No `cleanup`: the finished pods stay, so their logs (the results) can still be read.
      args: ['--out', 'json=-', '--no-summary', '--quiet', '--no-thresholds', '--tag', `testid=${o.name}`],
      ...(Object.keys(runner).length > 0 ? { runner } : {}),
      ...(Object.keys(mounts).length > 0 ? { initializer: mounts } : {}),
    },
  };
}

function bounded(what: string, bytes: number): void {
  if (bytes > CONFIGMAP_MAX_BYTES) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `${what} is ${bytes} bytes; a ConfigMap holds at most 1 MiB (${CONFIGMAP_MAX_BYTES} bytes)`);
}

export function configMapObject(o: OperatorOptions, script: string): Record<string, YamlValue> {
  bounded('the k6 script', Buffer.byteLength(script, 'utf8'));
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(o, o.name), data: { [SCRIPT_FILE]: script } };
}

/** One ConfigMap per data file, its bytes as base64 (binaryData). */
export function dataConfigMaps(o: OperatorOptions): Record<string, YamlValue>[] {
  return (o.dataFiles ?? []).map((f) => {
    bounded(`data file ${JSON.stringify(f.name)} (data[${f.index}])`, f.bytes.length);
    return { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(o, dataMapName(o, f)), binaryData: { [dataKey(f)]: Buffer.from(f.bytes).toString('base64') } };
  });
}

/** The YAML stream to `kubectl apply --server-side -f`: the data ConfigMaps, the script's, then the TestRun. */
export function operatorYaml(o: OperatorOptions, script: string): string {
  return yamlStream([...dataConfigMaps(o), configMapObject(o, script), testRunObject(o)]);
}
