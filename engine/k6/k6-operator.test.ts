import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { exportK6 } from './export-k6.js';
import { testRunObject } from './k6-operator.js';

// The operator's CRD schema (openAPIV3Schema of k6.io_testruns.yaml, source commit in its $comment).
// Kubernetes extensions (x-kubernetes-*) are annotations to ajv, not keywords it must know.
const schema = JSON.parse(readFileSync(new URL('./test-support/testrun-crd-schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
// Kubernetes' OpenAPI formats: their ranges are the API server's business, the shapes are ours.
for (const format of ['int32', 'int64', 'date-time', 'byte', 'quantity']) ajv.addFormat(format, true);
const validate = ajv.compile(schema);

describe('the k6-operator TestRun', () => {
  it('passes the schema of the operator CRD, with the script from the ConfigMap next to it', () => {
    const yaml = exportK6('seed-001-rates', { quick: true, cell: 1, operator: 4, clusterTarget: 'http://single.default.svc:8080', allowRemote: true });
    interface Doc {
      metadata: { name: string };
      data: Record<string, string>;
      spec: { runner: { env: unknown } };
    }
    const [configMap, testRun] = parseAllDocuments(yaml).map((d) => d.toJS() as Doc);
    const ok = validate(testRun);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
    expect(testRun).toMatchObject({ apiVersion: 'k6.io/v1alpha1', kind: 'TestRun', spec: { parallelism: 4, script: { configMap: { name: configMap!.metadata.name, file: 'script.js' } } } });
    expect(testRun!.spec.runner.env).toEqual([{ name: 'LOADSCOPE_TARGET', value: 'http://single.default.svc:8080' }]);
    expect(configMap!.data['script.js']).toContain('export function runPhase()');
  });

  it('is caught by the schema check when a field is wrong (the check is not vacuous)', () => {
    const bad = testRunObject({ parallelism: 2, name: 'x' }) as { spec: Record<string, unknown> };
    bad.spec.parallelism = 'two';
    bad.spec.cleanup = 'always';
    expect(validate(bad)).toBe(false);
    expect(validate.errors!.map((e) => e.instancePath).sort()).toEqual(['/spec/cleanup', '/spec/parallelism']);
  });
});
