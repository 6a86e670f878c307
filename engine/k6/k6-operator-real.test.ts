import { execFile, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { useTempStore } from '../../db/test-support/temp-store.js';
import { skipUnless } from '../test-support/skip.js';
import { importK6Files } from './import/import-k6.js';
import { exportK6 } from './export-k6.js';
import { K6_PINNED, k6Status } from './k6-binary.js';

// What the k6-operator does with an exported TestRun, done here with the same k6 (no cluster): the
// initializer's `k6 archive` and `k6 inspect` with the TestRun's arguments, then two runners at once,
// each with the segment, sequence and tags the operator gives runner 1 and 2 (pkg/segmentation and
// pkg/resources/jobs/runner.go of grafana/k6-operator). Each runner's stdout is its pod's log. Every
// point a runner writes carries its instance (ls_instance: 0 and 1), a count threshold the scenario
// holds only across both runners fails neither (--no-thresholds: Loadscope judges the merge), and the
// two logs import as one run with every request.

const k6 = k6Status();
const temp = useTempStore();
const run = promisify(execFile);

const PHASE_REQUESTS = 20;

interface Point {
  type: string;
  metric: string;
  data: { tags?: Record<string, string> };
}

describe(`a TestRun's runners, emulated with k6 ${k6.version ?? K6_PINNED}`, skipUnless(k6.available, k6.hint), () => {
  it('two runners with the operator segments: every point tagged with its instance, no runner failing a threshold met only by both, the logs importing as one run', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const file = join(temp.dir, 'operator-twice.json');
      writeFileSync(file, JSON.stringify({
        name: 'operator-twice',
        servers: [{ architecture: 'single' }],
        phases: [{ name: 'users', executor: 'closed', users: 4, count: PHASE_REQUESTS, requests: [{ path: '/x', expect: { status: 200 } }] }],
        thresholds: [{ check: `count == ${PHASE_REQUESTS}`, phase: 'users' }],
      }));
      const docs = parseAllDocuments(exportK6(file, { operator: 2 })).map((d) => d.toJS() as { kind: string; data?: Record<string, string>; spec?: { args: string[] } });
      const script = join(temp.dir, 'script.js');
      writeFileSync(script, docs.find((d) => d.kind === 'ConfigMap')!.data!['script.js']!);
      const args = docs.find((d) => d.kind === 'TestRun')!.spec!.args;

      // the initializer: k6 archive with the TestRun's arguments but --out (the operator drops it there), then inspect
      const archiveArgs = args.filter((a, i) => a !== '--out' && args[i - 1] !== '--out');
      const archive = join(temp.dir, 'script.tar');
      const archived = spawnSync(k6.path!, ['archive', script, '-O', archive, ...archiveArgs], { encoding: 'utf8', timeout: 60_000 });
      expect(archived.status, archived.stderr).toBe(0);
      const inspected = spawnSync(k6.path!, ['inspect', '--execution-requirements', archive], { encoding: 'utf8', timeout: 60_000 });
      expect(inspected.status, inspected.stderr).toBe(0);
      expect(inspected.stderr).not.toMatch(/level=error/);

      // the runners, at once; --address= keeps k6's API server off (the starter's job in a cluster)
      const env = { ...process.env, LOADSCOPE_TARGET: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
      const runner = (id: number, segment: string) =>
        run(k6.path!, ['run', '--quiet', `--execution-segment=${segment}`, '--execution-segment-sequence=0,1/2,1', ...args, script, '--address=', '--tag', `instance_id=${id}`, '--tag', 'testrun_name=loadscope-operator-twice'], { env, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
      // execFile rejects on a non-zero exit (99: a threshold crossed): a runner judging its share fails here
      const logs = (await Promise.all([runner(1, '0:1/2'), runner(2, '1/2:1')])).map((r) => r.stdout);

      const perInstance = logs.map((log, i) => {
        const points = log.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Point).filter((p) => p.type === 'Point');
        // a VU's points: the script's own and k6's http_req_* (dropped_iterations and vus come from k6's executor, tagged instance_id only)
        const fromVus = points.filter((p) => p.metric.startsWith('loadscope_') || p.metric.startsWith('http_req'));
        expect(fromVus.length, `runner ${i + 1}`).toBeGreaterThan(0);
        expect(new Set(fromVus.map((p) => `${p.data.tags?.ls_instance} ${p.data.tags?.instance_id}`))).toEqual(new Set([`${i} ${i + 1}`]));
        return fromVus.filter((p) => p.metric === 'loadscope_total').length;
      });
      // the segments split the phase's requests between the runners, all of them sent
      expect(perInstance.every((n) => n > 0 && n < PHASE_REQUESTS)).toBe(true);
      expect(perInstance[0]! + perInstance[1]!).toBe(PHASE_REQUESTS);

      const podLogs = logs.map((log, i) => {
        const path = join(temp.dir, `loadscope-operator-twice-${i + 1}.json`);
        writeFileSync(path, log);
        return path;
      });
      const imported = await importK6Files(temp.store, podLogs);
      expect(imported.requests).toBe(PHASE_REQUESTS);
      expect(temp.store.getRun(imported.runId).targets[0]!.phases[0]).toMatchObject({ name: 'users', count: PHASE_REQUESTS, ok: PHASE_REQUESTS });
    } finally {
      server.close();
    }
  });
});
