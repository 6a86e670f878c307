import { Ajv } from 'ajv';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import type { DataFile } from '../../contract/scenario.js';
import { exportK6 } from './export-k6.js';
import { CONFIGMAP_MAX_BYTES, DATA_DIR, MAX_RUNNERS, operatorYaml, testRunObject, type OperatorOptions } from './k6-operator.js';
import { operatorDataFiles } from './k6-operator-data.js';

// The k6-operator's manifests as the cluster checks them: the TestRun against the operator's CRD
// schema, each ConfigMap against Kubernetes' core/v1 ConfigMap schema and the API server's own rules
// the schema does not hold (key characters, names, 1 MiB). A data file travels byte for byte in a
// ConfigMap of its own, mounted for the runners and the initializer where the script opens it; one
// a ConfigMap cannot hold, one from outside the scenario's folder without consent, or two with one
// file name are refused in one line before any YAML is written.

const schemaOf = (file: string) => JSON.parse(readFileSync(new URL(`./test-support/${file}`, import.meta.url), 'utf8')) as Record<string, unknown>;
// Kubernetes extensions (x-kubernetes-*) are annotations to ajv, not keywords it must know.
const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
// Kubernetes' OpenAPI formats: their ranges are the API server's business, the shapes are ours;
// binaryData's `byte` is base64, checked here because it carries the data files.
for (const format of ['int32', 'int64', 'date-time', 'quantity']) ajv.addFormat(format, true);
ajv.addFormat('byte', /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
const validateTestRun = ajv.compile(schemaOf('testrun-crd-schema.json'));
const validateConfigMap = ajv.compile(schemaOf('configmap-v1-schema.json'));

interface ConfigMap {
  kind: 'ConfigMap';
  metadata: { name: string };
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
}
interface Volume {
  name: string;
  projected: { sources: { configMap: { name: string; items: { key: string; path: string }[] } }[] };
}
interface Mounts {
  volumes: Volume[];
  volumeMounts: { name: string; mountPath: string; readOnly: boolean }[];
}
interface TestRun {
  kind: 'TestRun';
  spec: { args: string[]; runner: Mounts & { env?: unknown }; initializer?: Mounts };
}

/** The API server's rules for a ConfigMap beyond its schema (k8s.io/kubernetes validation.ValidateConfigMap). */
function apiServerIssues(cm: ConfigMap): string[] {
  const issues: string[] = [];
  const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
  if (!DNS_SUBDOMAIN.test(cm.metadata.name) || cm.metadata.name.length > 253) issues.push(`name ${cm.metadata.name}`);
  let size = 0;
  for (const [key, value] of Object.entries(cm.data ?? {})) {
    if (!/^[-._a-zA-Z0-9]{1,253}$/.test(key) || key === '.' || key === '..') issues.push(`data key ${key}`);
    size += Buffer.byteLength(value, 'utf8');
  }
  for (const [key, value] of Object.entries(cm.binaryData ?? {})) {
    if (!/^[-._a-zA-Z0-9]{1,253}$/.test(key) || key === '.' || key === '..' || cm.data?.[key] !== undefined) issues.push(`binaryData key ${key}`);
    size += Buffer.from(value, 'base64').length;
  }
  if (size > CONFIGMAP_MAX_BYTES) issues.push(`${size} bytes`);
  return issues;
}

function manifests(yaml: string): { configMaps: ConfigMap[]; testRun: TestRun } {
  const docs = parseAllDocuments(yaml).map((d) => d.toJS() as ConfigMap | TestRun);
  const configMaps = docs.filter((d): d is ConfigMap => d.kind === 'ConfigMap');
  for (const cm of configMaps) {
    validateConfigMap(cm);
    expect(validateConfigMap.errors ?? [], cm.metadata.name).toEqual([]);
    expect(apiServerIssues(cm), cm.metadata.name).toEqual([]);
  }
  const testRun = docs.find((d): d is TestRun => d.kind === 'TestRun')!;
  validateTestRun(testRun);
  expect(validateTestRun.errors ?? []).toEqual([]);
  return { configMaps, testRun };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'ls-operator-'));
  dirs.push(d);
  return d;
}
const entry = (name: string, file: string): DataFile => ({ name, file, format: 'csv', order: 'sequential' });

describe('the k6-operator TestRun', () => {
  it("an exported TestRun passes the operator CRD's schema, its script's ConfigMap Kubernetes' ConfigMap schema; the runners skip k6's thresholds (Loadscope judges the merge)", () => {
    const yaml = exportK6('seed-001-rates', { quick: true, cell: 1, operator: 4, clusterTarget: 'http://single.default.svc:8080', allowRemote: true });
    const { configMaps, testRun } = manifests(yaml);
    expect(configMaps).toHaveLength(1);
    expect(testRun).toMatchObject({ apiVersion: 'k6.io/v1alpha1', kind: 'TestRun', spec: { parallelism: 4, script: { configMap: { name: configMaps[0]!.metadata.name, file: 'script.js' } } } });
    expect(testRun.spec.runner.env).toEqual([{ name: 'LOADSCOPE_TARGET', value: 'http://single.default.svc:8080' }]);
    expect(testRun.spec.args).toContain('--no-thresholds');
    expect(testRun.spec.args.slice(0, 2)).toEqual(['--out', 'json=-']);
    expect(configMaps[0]!.data!['script.js']).toContain('export function runPhase()');
  });

  it('is caught by the schema checks when a field is wrong (the checks are not vacuous)', () => {
    const bad = testRunObject({ parallelism: 2, name: 'x' }) as { spec: Record<string, unknown> };
    bad.spec.parallelism = 'two';
    bad.spec.cleanup = 'always';
    expect(validateTestRun(bad)).toBe(false);
    expect(validateTestRun.errors!.map((e) => e.instancePath).sort()).toEqual(['/spec/cleanup', '/spec/parallelism']);
    expect(validateConfigMap({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 1 }, binaryData: { b: 'not base64!' }, extra: true })).toBe(false);
    expect(validateConfigMap.errors!.map((e) => e.instancePath || e.params.additionalProperty).sort()).toEqual(['/binaryData/b', '/data/a', 'extra']);
  });

  it('two data files (CRLF, a BOM, U+2028, non-ASCII): each in a ConfigMap of its own, byte for byte, mounted for runners and initializer at the data folder under its base name', () => {
    const dir = folder();
    const users = 'user,pass\r\n\ufeffann,"a,b"\r\nbob,\u2028x\r\n';
    const items = '{"id":"é😀"}\n{"id":"on"}\n';
    writeFileSync(join(dir, 'users.csv'), users);
    mkdirSync(join(dir, 'more'));
    writeFileSync(join(dir, 'more', 'items.jsonl'), items);
    const dataFiles = operatorDataFiles({ data: [entry('users', 'users.csv'), { ...entry('items', 'more/items.jsonl'), format: 'jsonl' }] }, dir, false);
    const o: OperatorOptions = { parallelism: 2, name: 'loadscope-login', dataFiles };
    const { configMaps, testRun } = manifests(operatorYaml(o, '// script\n'));
    expect(configMaps.map((c) => c.metadata.name)).toEqual(['loadscope-login-data-0', 'loadscope-login-data-1', 'loadscope-login']);
    const texts = configMaps.slice(0, 2).map((c) => Object.values(c.binaryData!).map((b) => Buffer.from(b, 'base64').toString('utf8')));
    expect(texts).toEqual([[users], [items]]);
    // the same projected volume, at the same place, for the runners and for the initializer (k6 archive opens the files too)
    for (const pod of [testRun.spec.runner, testRun.spec.initializer!]) {
      expect(pod.volumeMounts).toEqual([{ name: 'loadscope-data', mountPath: DATA_DIR, readOnly: true }]);
      const sources = pod.volumes[0]!.projected.sources.map((s) => s.configMap);
      expect(sources.map((s) => [s.name, s.items.map((i) => i.path)])).toEqual([['loadscope-login-data-0', ['users.csv']], ['loadscope-login-data-1', ['items.jsonl']]]);
      // each item names the key its ConfigMap holds
      sources.forEach((s, i) => expect(Object.keys(configMaps[i]!.binaryData!)).toEqual(s.items.map((it) => it.key)));
    }
  });

  it('a data file a ConfigMap cannot hold (1 MiB + 1 byte, or bytes that grow past 1 MiB as UTF-8 text): refused in one line naming the entry, the file and the limit', () => {
    const dir = folder();
    writeFileSync(join(dir, 'exact.csv'), Buffer.alloc(CONFIGMAP_MAX_BYTES, 'a'));
    writeFileSync(join(dir, 'big.csv'), Buffer.alloc(CONFIGMAP_MAX_BYTES + 1, 'a'));
    // 0xff is no UTF-8: read as U+FFFD, three bytes each
    writeFileSync(join(dir, 'latin1.csv'), Buffer.alloc(CONFIGMAP_MAX_BYTES / 2, 0xff));
    expect(operatorDataFiles({ data: [entry('exact', 'exact.csv')] }, dir, false)[0]!.bytes.length).toBe(CONFIGMAP_MAX_BYTES);
    expect(() => operatorDataFiles({ data: [entry('exact', 'exact.csv'), entry('big', 'big.csv')] }, dir, false)).toThrow(`data[1].file: ${join(dir, 'big.csv')} is 1048577 bytes; a data file in a ConfigMap may have at most 1 MiB`);
    expect(() => operatorDataFiles({ data: [entry('latin1', 'latin1.csv')] }, dir, false)).toThrow(`data[0].file: ${join(dir, 'latin1.csv')} is 1572864 bytes as UTF-8 text; a data file in a ConfigMap may have at most 1 MiB`);
    // and the manifests' own bound, for a file handed in already read
    expect(() => operatorYaml({ parallelism: 1, name: 'x', dataFiles: [{ index: 0, name: 'a.csv', bytes: new Uint8Array(CONFIGMAP_MAX_BYTES + 1) }] }, '')).toThrow('data file "a.csv" (data[0]) is 1048577 bytes; a ConfigMap holds at most 1 MiB (1048576 bytes)');
  });

  it("a data file from outside the scenario's folder: refused without --allow-files (the YAML would carry it), carried with it", () => {
    const [own, other] = [folder(), folder()];
    writeFileSync(join(other, 'secret.csv'), 'k\nv\n');
    const data = [entry('s', join(other, 'secret.csv'))];
    expect(() => operatorDataFiles({ data }, own, false)).toThrow(/^this YAML would carry data files from outside the scenario's folder: ".*secret\.csv" \(copied into ConfigMaps\); pass --allow-files$/);
    expect(operatorDataFiles({ data }, own, true).map((f) => f.name)).toEqual(['secret.csv']);
  });

  it('two data files with one base name (one folder in the pod): refused naming both entries', () => {
    const dir = folder();
    mkdirSync(join(dir, 'a'));
    mkdirSync(join(dir, 'b'));
    writeFileSync(join(dir, 'a', 'users.csv'), 'k\nv\n');
    writeFileSync(join(dir, 'b', 'users.csv'), 'k\nw\n');
    expect(() => operatorDataFiles({ data: [entry('a', 'a/users.csv'), entry('b', 'b/users.csv')] }, dir, false)).toThrow('data[1].file: its file name "users.csv" is also data[0].file\'s; in the runners\' data folder each file needs a name of its own');
  });

  it(`a parallelism of 0, 2.5 or ${MAX_RUNNERS + 1}: refused in one line with the range`, () => {
    for (const parallelism of [0, 2.5, MAX_RUNNERS + 1]) {
      expect(() => testRunObject({ parallelism, name: 'x' })).toThrow(`--operator ${parallelism}: the parallelism must be a whole number from 1 to ${MAX_RUNNERS}`);
    }
    expect(testRunObject({ parallelism: MAX_RUNNERS, name: 'x' })).toMatchObject({ spec: { parallelism: MAX_RUNNERS } });
  });
});
