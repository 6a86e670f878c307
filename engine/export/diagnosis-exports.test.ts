import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnosisList, HEALTHY_TEXT } from '../../contract/diagnosis.js';
import { LIGHT } from '../../contract/report/palette.js';
import { buildRunReport, type RunReport } from '../../contract/report/run-report.js';
import { useTempEngine } from '../test-support/temp-engine.js';
import { runExport } from './export-run.js';
import { diagnosisBlock } from './html-diagnosis.js';
import { runSummaryPng, type DrawnText } from './png.js';
import { reportInput } from './report-data.js';

// The run's diagnosis in its HTML and PNG reports (issue 38: "What happened"), from a real run on the
// bundled server whose phase and endpoint names are hostile (markup, a pipe, backticks, a line
// break): the findings that quote them (too-many-urls, too-little-data) stay text in the HTML, the
// section comes before the figures, and the PNG draws the top findings inside its page.

const temp = useTempEngine('diagnosis-exports', 'all');
const PHASE = '<script>alert(1)</script> | `tick`\nline two';
const endpointName = (i: number) => `<img src=x onerror=alert(1)> | \`e\`\nGET /items/${1000 + i}`;
let runId: number;
let report: RunReport;

beforeAll(async () => {
  const scenario = {
    name: 'diagnosis-exports',
    servers: [{ architecture: 'single' }],
    // 24 endpoints of about 10 requests each: too-many-urls fires and names the phase and the endpoints' shape
    phases: [{ executor: 'closed', name: PHASE, users: 2, count: 240, requests: Array.from({ length: 24 }, (_, i) => ({ name: endpointName(i), path: `/static?size=${1000 + i}` })) }],
  };
  ({ runId } = await temp.engine.handlers['runs:start']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {} }));
  await temp.engine.waitForRun(runId);
  report = buildRunReport(reportInput(temp.engine.store, runId, true), LIGHT);
}, 60_000);
afterAll(() => undefined);

describe('"What happened" in the HTML report', () => {
  it('hostile phase and endpoint names in the findings: escaped, no markup, the section before the phases', async () => {
    const html = (await runExport(temp.engine.store, runId, 'html')).bytes.toString('utf8');
    const start = html.indexOf('<section class="diagnosis"');
    const section = html.slice(start, html.indexOf('</section>', start));
    expect(start).toBeGreaterThan(0);
    expect(start).toBeLessThan(html.indexOf('<h2>Phases</h2>'));
    expect(section).toContain('<h2>What happened</h2>');
    expect(section).toContain('data-rule="too-many-urls"');
    expect(section).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(section).toContain('&#60;img src=x onerror=alert(1)&#62; | `e` GET /items/{id}'.replace(/ GET/, '\nGET'));
    expect(section).not.toMatch(/<script|<img/);
    // what it cannot answer comes after the findings, under its own heading
    expect(section.indexOf('What this run cannot answer')).toBeGreaterThan(section.indexOf('data-rule="too-many-urls"'));
    expect(section).toContain('data-rule="too-little-data"');
  });
});

describe('"What happened" without findings', () => {
  it('a healthy diagnosis: the healthy line, marked healthy; a report made without a diagnosis: no section', () => {
    const healthy = diagnosisBlock({ findings: diagnosisList({ findings: [], cannotAnswer: [], healthy: true }) });
    expect(healthy).toContain('data-healthy="true"');
    expect(healthy).toContain('data-rule="healthy"');
    expect(healthy).toContain(HEALTHY_TEXT.slice(0, 20));
    expect(healthy).not.toContain('What this run cannot answer');
    expect(diagnosisBlock({ findings: null })).toBe('');
  });
});

describe('"What happened" in the PNG report', () => {
  it('the heading and the top findings are drawn inside the page, each on at most two lines', async () => {
    const drawn: DrawnText[] = [];
    await runSummaryPng(report, drawn);
    const at = drawn.findIndex((d) => d.text === 'What happened');
    expect(at).toBeGreaterThan(0);
    const block = drawn.slice(at + 1, at + 8).map((d) => d.text);
    expect(block.some((t) => t.startsWith('too-many-urls: phase <script>alert(1)</script> | `tick` line two is split into 24 endpoints'))).toBe(true);
    for (const d of drawn) {
      expect(d.text).not.toContain('\n');
      expect(d.right).toBeLessThanOrEqual(1600 - 20 + 0.5);
    }
  });
});
