import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { LatencyStats, PhaseResult, TargetResult } from '../../contract/results';
import { PhaseTable } from './PhaseTable';

// The Run view's table gives a phase's error reasons (issue 35) a line each under the phase, as text.

const stats = (mean: number): LatencyStats => ({ count: 100, mean, min: mean / 2, max: mean * 3, stddev: mean / 4, p50: mean, p66: mean, p75: mean, p80: mean, p90: mean, p95: mean, p98: mean, p99: mean, p999: mean });
const phaseResult = (index: number, o: Partial<PhaseResult> = {}): PhaseResult => ({ index, name: `phase ${index}`, executor: 'closed', clients: 1, startedMs: 0, durationMs: 1000, count: 100, ok: 96, errors: {}, throughput: 100, total: stats(10), wait: null, processing: null, serverWait: null, lag: stats(0.1), ...o });
const target = (phase: PhaseResult): TargetResult => ({ id: 1, cellIndex: 0, serverIndex: 0, label: 'single', name: 'single', architecture: 'single', status: 'completed', reason: null, startedAt: null, durationMs: 1000, phases: [phase], peakCpu: null, peakRssBytes: null, peakProcesses: null, rawRows: 0, rawSampled: false });

describe('the phase table', () => {
  it('a phase with error reasons: a line each under it, markup in a reason shown as text', () => {
    const phase = phaseResult(0, { errors: { protocol: 3, reset: 1 }, errorReasons: [{ kind: 'protocol', reason: 'HPE_STRICT: Expected LF after chunk data', count: 3 }, { kind: 'reset', reason: '<b>bold</b>', count: 1 }] });
    const html = renderToStaticMarkup(createElement(PhaseTable, { targets: [target(phase)], engine: 'native' }));
    expect(html.match(/data-testid="error-reason-row"/g)).toHaveLength(2);
    expect(html).toContain('errors: protocol 3: HPE_STRICT: Expected LF after chunk data');
    expect(html).not.toContain('<b>bold');
    expect(renderToStaticMarkup(createElement(PhaseTable, { targets: [target(phaseResult(0))], engine: 'native' }))).not.toContain('error-reason-row');
  });
});
