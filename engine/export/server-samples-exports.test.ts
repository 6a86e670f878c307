import { describe, expect, it } from 'vitest';
import { LIGHT } from '../../contract/report/palette.js';
import { buildRunReport } from '../../contract/report/run-report.js';
import { histograms, newRun, phaseResult, requestBatch } from '../../db/test-support/factories.js';
import { useTempStore } from '../../db/test-support/temp-store.js';
import { runExport } from './export-run.js';
import { runSummaryPng, type DrawnText } from './png.js';
import { reportInput } from './report-data.js';

// CPU and memory of a server Loadscope does not run (issue 36): an external target it attached to
// (no command) has no process samples, and the HTML report and the PNG drew two empty chart frames
// for it. Now both say why in one line and leave the frames out; a server it runs keeps its charts,
// and a run with both kinds keeps the charts and names the server without samples. Runs stored in
// a real SQLite file and read back as the exports read them.

const temp = useTempStore();

interface Server {
  label: string;
  architecture: string;
  /** process samples the supervisor recorded for it */
  samples: number;
}

/** A completed run of one phase against each server. */
function storedRun(servers: readonly Server[]): number {
  const runId = temp.store.createRun(newRun());
  temp.store.addCells(runId, [{ index: 0, label: '', params: {} }]);
  servers.forEach((s, serverIndex) => {
    const id = temp.store.createTarget({ runId, cellIndex: 0, serverIndex, label: s.label, architecture: s.architecture, status: 'running', startedAt: new Date().toISOString() });
    temp.store.savePhase(id, phaseResult(0, { name: 'steady' }), histograms());
    temp.store.insertRequests(id, requestBatch(0, 5));
    temp.store.insertSamples(Array.from({ length: s.samples }, (_, i) => ({ targetId: id, tMs: 500 * (i + 1), cpuPercent: 40, rssBytes: 50e6, processes: 1, busy: null, queue: null })));
    temp.store.updateTarget(id, { status: 'completed', durationMs: 1000 });
  });
  temp.store.finishRun(runId, 'completed', null);
  return runId;
}

const ATTACHED: Server = { label: 'mine', architecture: 'external', samples: 0 };
const STARTED: Server = { label: 'started', architecture: 'external', samples: 3 };
const BUNDLED: Server = { label: 'single', architecture: 'single', samples: 3 };

const report = (runId: number) => buildRunReport(reportInput(temp.store, runId), LIGHT);
const html = async (runId: number) => (await runExport(temp.store, runId, 'html')).bytes.toString('utf8');
const chartIds = (page: string) => [...page.matchAll(/data-chart-id="([^"]+)"/g)].map((m) => m[1]);

async function pngTexts(runId: number): Promise<string> {
  const drawn: DrawnText[] = [];
  await runSummaryPng(report(runId), drawn);
  return drawn.map((d) => d.text).join('\n');
}

describe('CPU and memory of a server Loadscope does not run, in the exports', () => {
  it('HTML of a run against an external target already running: one line says why, no CPU or memory frame', async () => {
    const page = await html(storedRun([ATTACHED]));
    expect(page).toContain('<p class="muted" data-server-samples-note>Loadscope does not run this server (an external target, already running), so it has no CPU or memory samples for it;');
    expect(chartIds(page)).toContain('latency-total');
    expect(chartIds(page)).not.toContain('server-cpu');
    expect(chartIds(page)).not.toContain('server-memory');
  });

  it('PNG of the same run: the line in its header, no CPU chart among the drawn ones', async () => {
    const runId = storedRun([ATTACHED]);
    expect(await pngTexts(runId)).toMatch(/Loadscope does not run this server \(an external target, already running\), so it has no CPU or memory\s+samples for it/);
    expect(report(runId).charts.map((c) => c.id)).not.toContain('server-cpu');
  });

  it('a bundled server and an external one Loadscope starts by its command: their CPU and memory charts, no such line', async () => {
    for (const server of [BUNDLED, STARTED]) {
      const runId = storedRun([server]);
      const page = await html(runId);
      expect(chartIds(page), server.label).toEqual(expect.arrayContaining(['server-cpu', 'server-memory']));
      expect(page, server.label).not.toContain('data-server-samples-note');
      expect(await pngTexts(runId), server.label).not.toContain('Loadscope does not run');
    }
  });

  it('a run against both: the charts of the sampled server kept, the line names the external one', async () => {
    const runId = storedRun([BUNDLED, ATTACHED]);
    const page = await html(runId);
    expect(chartIds(page)).toEqual(expect.arrayContaining(['server-cpu', 'server-memory']));
    expect(page).toContain('data-server-samples-note>Loadscope does not run mine (external targets, already running), so it has no CPU or memory samples for them; the charts show the others.</p>');
    expect(await pngTexts(runId)).toContain('Loadscope does not run mine');
  });
});
