import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { counterLines, droppedLine, metricLine, requestLine } from '../test-support/k6-points.js';
import { importK6Files } from './import-k6.js';
import { parseTimeUs } from './k6-time.js';
import { useTempStore } from '../../../db/test-support/temp-store.js';

const temp = useTempStore();

const file = (name: string, lines: string[], gzip = false) => {
  const path = join(temp.dir, name);
  const text = lines.join('\n') + '\n';
  writeFileSync(path, gzip ? gzipSync(text) : text);
  return path;
};

describe('import-k6', () => {
  it('reads k6 timestamps to the microsecond, with zones, and CSV unix times of any unit', () => {
    expect(parseTimeUs('2026-01-01T00:00:00.123456789Z')).toBe(Date.parse('2026-01-01T00:00:00Z') * 1000 + 123457);
    expect(parseTimeUs('2026-01-01T02:00:00.5+02:00')).toBe(Date.parse('2026-01-01T00:00:00Z') * 1000 + 500000);
    expect(parseTimeUs('1767225600')).toBe(1767225600e6);
    expect(parseTimeUs('1767225600123')).toBe(1767225600123e3);
    expect(parseTimeUs('not a time')).toBeNull();
  });

  it('merges two result files (two k6-operator pods, one gzipped) into one run: phases from tags, totals, Server-Timing, errors by kind', async () => {
    const podA = file('pod-0.json', [metricLine('loadscope_total'), ...[0, 1, 2].map((i) => requestLine({ endMs: 10 + i * 10, totalMs: 5, phase: 0, proc: 2, wait: 1 })), 'time="..." level=info msg="a log line kubectl logs mixes in"']);
    // pod B's requests come with the script's threshold counters (one point each per request): not requests themselves
    const bRequests = [...[0, 1].map((i) => ({ endMs: 15 + i * 10, totalMs: 7, phase: 0, proc: 3 })), { endMs: 500, totalMs: 40, phase: 1, result: 'http', status: 503 }, { endMs: 520, totalMs: 1, phase: 1, result: 'refused', status: 0 }];
    const podB = file('pod-1.json.gz', bRequests.flatMap((r) => [requestLine(r), ...counterLines(r)]), true);
    const summary = await importK6Files(temp.store, [podA, podB]);
    expect(summary).toMatchObject({ requests: 7, dropped: 0, skippedLines: 1 });
    const run = temp.store.getRun(summary.runId);
    expect(run.engine).toBe('k6');
    expect(run.engineNote).toMatch(/no intended send time/);
    expect(run.engineNote).toMatch(/Merged from 2 result files/);
    expect(run.targets).toHaveLength(1);
    const [p0, p1] = run.targets[0]!.phases;
    expect(p0).toMatchObject({ index: 0, name: 'phase 1', count: 5, ok: 5 });
    expect(p0!.total.max).toBeCloseTo(7, 1);
    expect(p0!.processing!.count).toBe(5);
    expect(p0!.serverWait!.count).toBe(3);
    expect(p0!.wait!.max).toBeCloseTo(4, 1); // 7 - 3
    expect(p1).toMatchObject({ index: 1, count: 2, ok: 0, errors: { http: 1, refused: 1 } });
    expect(p1!.total.count).toBe(1); // refusals stay out of the latency histograms, as natively
    expect(run.targets[0]!.rawRows).toBe(7);
    expect(temp.store.getRequests(run.id, run.targets[0]!.id, 100).points.map((p) => p.status).sort()).toEqual([0, 200, 200, 200, 200, 200, 503]);
    expect(temp.store.listRuns()[0]).toMatchObject({ id: run.id, engine: 'k6', requests: 7 });
    expect(temp.store.getHistograms(run.id)).toHaveLength(2);
  });

  it('shows the dropped iterations of an open-model phase k6 could not keep up with, as requests never sent', async () => {
    const lines = [...Array.from({ length: 20 }, (_, i) => requestLine({ endMs: i * 50, totalMs: 30, phase: 0 })), droppedLine(400, 0, 7), droppedLine(900, 0, 5)];
    const summary = await importK6Files(temp.store, [file('open.json', lines)]);
    expect(summary.dropped).toBe(12);
    const phase = temp.store.getRun(summary.runId).targets[0]!.phases[0]!;
    expect(phase).toMatchObject({ count: 32, ok: 20, errors: { timeout: 12 } });
    expect(phase.total.count).toBe(20);
    expect(temp.store.getRun(summary.runId).engineNote).toMatch(/Dropped iterations \(requests never sent.*'phase 1' on single: 12/);
  });

  it('names a phase by its phase tag even when a dropped iteration (scenario tags only) came first', async () => {
    const lines = [droppedLine(10, 0, 3, 'single', true), ...Array.from({ length: 5 }, (_, i) => requestLine({ endMs: 20 + i * 50, totalMs: 30, phase: 0 }))];
    const summary = await importK6Files(temp.store, [file('dropped-first.json', lines)]);
    const phases = temp.store.getRun(summary.runId).targets[0]!.phases;
    expect(phases.map((p) => [p.name, p.count])).toEqual([['phase 1', 8]]);
  });

  it("reads k6's CSV output, tags from extra_tags and Server-Timing from metadata", async () => {
    const header = 'metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags,metadata';
    const row = (t: number, v: number) => `loadscope_total,${t},${v},,,,,,,,,p0_a,,200,,,,"phase=a&phase_idx=0&server=s&cell=0&ls_result=ok","st_proc=2.5"`;
    const summary = await importK6Files(temp.store, [file('out.csv', [header, row(1767225600000100, 10), row(1767225600000200, 20), 'http_reqs,1767225600000200,1,,,,true,,GET,/,HTTP/1.1,p0_a,,200,,,,,'])]);
    const phase = temp.store.getRun(summary.runId).targets[0]!.phases[0]!;
    expect(phase).toMatchObject({ name: 'a', count: 2 });
    expect(phase.processing!.mean).toBeCloseTo(2.5, 1);
  });

  it('reads a foreign k6 script from http_req_duration, one phase per k6 scenario, and names a file with no points', async () => {
    const point = (scenario: string, status: number, ms: number) =>
      JSON.stringify({ metric: 'http_req_duration', type: 'Point', data: { time: '2026-01-01T00:00:01.5Z', value: ms, tags: { scenario, status: String(status), expected_response: String(status < 400) } } });
    const summary = await importK6Files(temp.store, [file('foreign.json', [point('default', 200, 3), point('default', 500, 9), point('spike', 200, 4)])]);
    const t = temp.store.getRun(summary.runId).targets[0]!;
    expect(t.label).toBe('k6 target');
    expect(t.phases.map((p) => [p.name, p.count, p.errors.http])).toEqual([['default', 2, 1], ['spike', 1, 0]]);
    await expect(importK6Files(temp.store, [file('empty.json', ['hello'])])).rejects.toThrow(/no k6 request points in empty.json/);
  });
});
