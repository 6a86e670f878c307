import { stringify } from 'yaml';

// The k6-operator's TestRun (k6.io/v1alpha1) for a generated script, and the ConfigMap holding the
// script. The operator splits the scenarios across `parallelism` runner pods with k6's execution
// segments, so the pods' request counts add up to the scenario's. Each runner writes its points as
// NDJSON to stdout (k6's JSON output writes to stdout when the file name is "-"),
// so `kubectl logs` of each pod is a file `loadscope import-k6` reads (it skips non-JSON lines).

export interface OperatorOptions {
  /** runner pods */
  parallelism: number;
  /** metadata.name of the TestRun and ConfigMap (a DNS-1123 name) */
  name: string;
  /** the base URL the pods send to (inside the cluster); becomes LOADSCOPE_TARGET */
  target?: string;
  namespace?: string;
}

export const SCRIPT_FILE = 'script.js';

/** A valid Kubernetes object name from anything. */
export function k8sName(s: string): string {
  const n = s.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 50);
  return n || 'loadscope';
}

export function testRunObject(o: OperatorOptions): Record<string, unknown> {
  const env = o.target === undefined ? [] : [{ name: 'LOADSCOPE_TARGET', value: o.target }];
  return {
    apiVersion: 'k6.io/v1alpha1',
    kind: 'TestRun',
    metadata: { name: o.name, ...(o.namespace ? { namespace: o.namespace } : {}), labels: { 'app.kubernetes.io/created-by': 'loadscope' } },
    spec: {
      parallelism: o.parallelism,
      script: { configMap: { name: o.name, file: SCRIPT_FILE } },
      // each element goes to k6 as written: points to stdout, no summary or banner among them. No
      // `cleanup`: the finished pods stay, so their logs (the results) can still be read.
      args: ['--out', 'json=-', '--no-summary', '--quiet', '--tag', `testid=${o.name}`],
      ...(env.length > 0 ? { runner: { env } } : {}),
    },
  };
}

export function configMapObject(o: OperatorOptions, script: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: o.name, ...(o.namespace ? { namespace: o.namespace } : {}) },
    data: { [SCRIPT_FILE]: script },
  };
}

/** The YAML stream to `kubectl apply -f`: the ConfigMap, then the TestRun. */
export function operatorYaml(o: OperatorOptions, script: string): string {
  return `${stringify(configMapObject(o, script))}---\n${stringify(testRunObject(o))}`;
}
