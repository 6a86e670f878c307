import { describe, expect, it } from 'vitest';
import { LIGHT } from '../../contract/report/palette.js';
import { buildRunReport } from '../../contract/report/run-report.js';
import { histograms, newRun, phaseResult, requestBatch, runVerdict } from '../../db/test-support/factories.js';
import { useTempStore } from '../../db/test-support/temp-store.js';
import { runExport } from './export-run.js';
import { runSummaryPng, type DrawnText } from './png.js';
import { reportInput } from './report-data.js';

// A run's regression verdict (`run --baseline`, issue 36) in its exports, beside its thresholds: the
// HTML report and the PNG used to say "thresholds: all 1 passed" and nothing else for a run that
// exited 98. Now both say which rule failed, where and by how much, the endpoint that moved most,
// and that one run against one was judged with one run's noise (confirm with --repeat). The rule
// and the endpoint are hostile on purpose: markup that must stay text. A real SQLite file, read back.

const temp = useTempStore();
const ENDPOINT = 'GET /slow?<script>alert(1)</script>';

/** A completed run of one phase whose one threshold passed; its verdict stored when `judged`. */
function storedRun(judged: 'one run' | 'group' | null): number {
  const runId = temp.store.createRun(newRun());
  temp.store.addCells(runId, [{ index: 0, label: '', params: {} }]);
  const id = temp.store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single', status: 'running', startedAt: new Date().toISOString() });
  temp.store.savePhase(id, phaseResult(0, { name: 'steady' }), histograms());
  temp.store.insertRequests(id, requestBatch(0, 5));
  temp.store.saveThresholds(id, [{ targetId: id, cellIndex: 0, server: 'single', phaseIndex: 0, phase: 'steady', check: 'errors.rate < 0.05', metric: 'errors.rate', op: '<', limit: 0.05, measured: 0.02, passed: true }]);
  temp.store.updateTarget(id, { status: 'completed', durationMs: 1000 });
  temp.store.finishRun(runId, 'completed', null);
  if (judged !== null) {
    const v = runVerdict([runId + 100], judged === 'group' ? [runId, runId] : [runId]);
    const failedCheck = { ...v.rules[0]!.checks[0]!, movedMost: { endpoint: ENDPOINT, baseline: 10, now: 22, change: 1.2 } };
    temp.store.saveVerdict({ ...v, baselineRunIds: [7], rules: [{ ...v.rules[0]!, rule: 'total.p99 > +10% phase=<b>steady</b>', checks: [failedCheck] }, v.rules[1]!] });
  }
  return runId;
}

const html = async (runId: number) => (await runExport(temp.store, runId, 'html')).bytes.toString('utf8');

async function pngTexts(runId: number): Promise<string[]> {
  const drawn: DrawnText[] = [];
  await runSummaryPng(buildRunReport(reportInput(temp.store, runId), LIGHT), drawn);
  return drawn.map((d) => d.text);
}

describe("a run's regression verdict in its exports", () => {
  it('HTML: a failed rule under the passing thresholds, with where, how much, the endpoint that moved most and the one-run note, all as text', async () => {
    const page = await html(storedRun('one run'));
    expect(page).toContain('<h2>Thresholds <span class="muted">all 1 passed</span></h2>');
    expect(page).toContain('<h2>Regression rules <span class="muted">regression: 1 of 2 rules failed against baseline run 7</span></h2>');
    const table = page.slice(page.indexOf('<table class="data regression"'));
    expect(table).toMatch(/^<table class="data regression" data-failed="1">/);
    expect(table).toContain('<tr class="fail" data-rule="total.p99 &#62; +10% phase=&#60;b&#62;steady&#60;/b&#62;"><td class="left"><code>total.p99 &#62; +10% phase=&#60;b&#62;steady&#60;/b&#62;</code></td><td class="left">single / steady');
    expect(table).toContain('<td class="num">+42.8 %</td><td class="left verdict">FAIL</td>');
    expect(table).toContain('<div class="worse" data-moved-most>moved most: GET /slow?&#60;script&#62;alert(1)&#60;/script&#62; +120.0 % (10.00 ms → 22.00 ms)</div>');
    expect(table).toContain('<tr class="pass" data-rule="throughput &#60; -5%">');
    expect(page).toContain("<p class=\"muted\" data-one-run-noise>Note: judged with one run&#39;s noise");
    expect(page).toContain('confirm with --repeat 3');
    expect(page).not.toContain('<script>alert(1)');
    expect(page).not.toContain('<b>steady</b>');
  });

  it('HTML: a repeated group judged has no one-run note; a run never judged has no verdict section', async () => {
    const group = await html(storedRun('group'));
    expect(group).toContain('<table class="data regression" data-failed="1">');
    expect(group).not.toContain('data-one-run-noise');
    expect(await html(storedRun(null))).not.toContain('Regression rules');
  });

  it('PNG: the header says the regression failed against which baseline, each failed rule where and by how much, and the one-run note', async () => {
    const header = (await pngTexts(storedRun('one run'))).join('\n');
    expect(header).toContain('thresholds: all 1 passed');
    expect(header).toContain("regression: 1 of 2 rules failed against baseline run 7 (one run's noise)");
    expect(header).toMatch(/FAIL total\.p99 > \+10% phase=<b>steady<\/b>: \+42\.8 % at single \/ steady \(moved most: GET \/slow\?<script>alert\(1\)<\/script>\s+\+120\.0 %/);
    expect(header).toMatch(/judged with one run's noise.*\n?.*confirm with --repeat 3/);
    // a run never judged: the thresholds line alone
    expect((await pngTexts(storedRun(null))).join('\n')).not.toContain('regression');
  });
});
