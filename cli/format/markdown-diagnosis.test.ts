import { describe, expect, it } from 'vitest';
import type { EndpointResult } from '../../contract/results.js';
import { diagnose } from '../../engine/diagnosis/index.js';
import { createPhase, createStoredRun, createWindow, flatStats } from '../../engine/diagnosis/test-support/stored-run-factory.js';
import { ciMarkdown } from './ci-markdown.js';

// The run's diagnosis in the `--markdown` summary (issue 38: "What happened"): findings that quote a
// hostile phase name and endpoint names (markup, a pipe, backticks, a line break, a link) stay one
// bullet of plain text each; a healthy run says so; several runs are told apart by their ids.

const PHASE = '<script>x</script> | `tick`\nline two [a](http://evil.example)';
const endpoint = (i: number): EndpointResult => ({ name: `GET /items/${1000 + i} | \`e\``, index: i, count: 10, ok: 10, errors: {}, throughput: 5, total: flatStats(20, 10), wait: null, processing: null, serverWait: null, lag: flatStats(0.1, 10), ttfb: flatStats(19, 10), transfer: flatStats(0.01, 10) });
const hostile = diagnose(createStoredRun([createPhase({ name: PHASE, count: 240, endpoints: Array.from({ length: 24 }, (_, i) => endpoint(i)) })], { windows: [createWindow()] }));
const healthy = diagnose(createStoredRun([createPhase()], { windows: [createWindow()] }));
const summary = (diagnoses: { runId: number; diagnosis: typeof healthy }[]) =>
  ciMarkdown({ scenarioName: 's', runs: diagnoses.map((d) => ({ id: d.runId, status: 'completed', quick: false })), thresholds: [], regression: null, diagnoses });

describe('"What happened" in the Markdown summary', () => {
  it('hostile phase and endpoint names in the findings: one bullet each, no markup, no pipe or backtick unescaped, no link', () => {
    const md = summary([{ runId: 3, diagnosis: hostile }]);
    expect(md).toContain('#### What happened\n');
    const bullets = md.split('\n').filter((l) => l.startsWith('- **'));
    expect(bullets.map((b) => /^- \*\*([\w-]+)\*\*/.exec(b.replace(/\\/g, ''))?.[1])).toEqual(['too-many-urls', 'too-little-data', 'one-run']);
    const tooMany = bullets[0]!;
    expect(tooMany).toContain('&lt;script&gt;x&lt;/script&gt; \\| \\`tick\\` line two');
    for (const b of bullets) {
      expect(b).not.toMatch(/<script|(?<!\\)[|`]|http:\/\//);
    }
    // what it cannot answer, after the findings under its own line
    expect(md.indexOf('*What this run cannot answer:*')).toBeGreaterThan(md.indexOf(tooMany));
  });

  it('a healthy run: the healthy line; two runs: each section named by its run', () => {
    const one = summary([{ runId: 3, diagnosis: healthy }]);
    expect(one).toMatch(/- \*\*healthy\*\*: no rule found a limit/);
    const two = summary([{ runId: 3, diagnosis: healthy }, { runId: 4, diagnosis: hostile }]);
    expect(two).toContain('#### What happened in run #3');
    expect(two).toContain('#### What happened in run #4');
  });

  it('a summary made without diagnoses (compare): no section', () => {
    expect(ciMarkdown({ scenarioName: 's', runs: [], thresholds: [], regression: null })).not.toContain('What happened');
  });
});
