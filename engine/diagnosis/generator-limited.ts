import { LAG_FLOOR_MS, LAG_SHARE, lagMakesTail } from '../../contract/generator-lag.js';
import type { Finding } from '../../contract/diagnosis.js';
import { figureIn } from './figures-in.js';
import { MIN_CPU_WINDOWS, OWN_CPU_BUSY, ownCpuOf } from './generator-cpu.js';
import { phaseCases, type DiagnosisRule } from './stored-run.js';
import { MIN_REQUESTS_FOR_P99 } from './too-little-data.js';

// The tail is Loadscope's: the generator sent late against its own schedule (a busy core, GC)
// while no arrival waited for a free connection, so the lag is its own stalls, not its queue
// (that is client-queueing). Thresholds are contract/generator-lag.ts's (the note every view
// prints), so the diagnosis and the note cannot disagree: LAG_SHARE of total p99, above LAG_FLOOR_MS.
// Or the generator's own CPU (its live windows, generator-cpu.ts) averaged past OWN_CPU_BUSY over
// the phase: a generator that busy is a limit even while it still keeps its schedule.

export const generatorLimited: DiagnosisRule = {
  id: 'generator-limited',
  kind: 'finding',
  about: {
    summary: "the load generator's own lag (sent - intended) is most of the tail while no request waited for a connection: the tail is Loadscope's",
    thresholds: [
      { name: 'LAG_SHARE', value: LAG_SHARE, why: 'client queue p99 / total p99 at or above it (contract/generator-lag.ts, the note every view prints: one threshold, no disagreement)' },
      { name: 'LAG_FLOOR_MS', value: LAG_FLOOR_MS, why: 'client queue p99 below it (ms) is nobody\'s problem (contract/generator-lag.ts)' },
      { name: 'OWN_CPU_BUSY', value: OWN_CPU_BUSY, why: "the Loadscope process's mean CPU over the phase (% of one core) at or above it: the generator itself was busy (k6 Cloud's performance insights warn at 80 % generator CPU; Locust at 90 %)" },
      { name: 'MIN_CPU_WINDOWS', value: MIN_CPU_WINDOWS, why: 'live windows (250 ms) with the own CPU a phase needs for its mean: a second, so one busy window (a GC, a batch stored) is no finding' },
      { name: 'MIN_REQUESTS_FOR_P99', value: MIN_REQUESTS_FOR_P99, why: "too-little-data's: below it the finding is said with low confidence, since a p99 of fewer requests is often a phase's first few, sent while its connections open (seen: 20-30 ms lag on phases of 40-60 requests); silent would contradict the generator-tail note every view prints" },
    ],
    blindSpots: ["the own CPU is the whole Loadscope process (the driver's thread and the store's writes): a driver thread at one core while the rest idles reads as about 100 %, two threads at half a core each read the same", 'runs stored before the own CPU was kept (migration 21) are judged by the lag alone', 'k6 runs have no intended time, so no lag, and k6 runs in its own process: its CPU is not measured, silent', "its ground-truth case stops the generator (SIGSTOP) to prove the lag part on any machine; the CPU part has unit tests only: a machine with busy neighbours gives the generator too little CPU to cross 80 % decisively", 'in a closed loop a stalled generator also reads its responses late: that stall shows as ttfb or transfer, not lag, and this rule cannot see it'],
  },
  check(stored) {
    const { run } = stored;
    return phaseCases(stored).flatMap(({ phase, windows: own, place }): Finding[] => {
      const cpu = ownCpuOf(own);
      const busy = cpu !== null && cpu.mean >= OWN_CPU_BUSY ? cpu : null;
      const cpuFigures = cpu === null ? [] : [{ name: 'own CPU mean (% of one core)', value: cpu.mean, unit: '%' }];
      const lag = figureIn(run.engine, phase, 'lag', 'p99');
      const total = figureIn(run.engine, phase, 'total', 'p99');
      // a p99 of fewer is the slowest few requests, often a phase's first ones, sent while its
      // connections open (seen: 20-30 ms on phases of 40-60 requests): still the generator's lag, as
      // the note every view prints says, but said with low confidence and too-little-data beside it
      const few = phase.count < MIN_REQUESTS_FOR_P99;
      const lagging = lagMakesTail(lag, total) && !own.some((w) => w.queued > 0);
      if (!lagging && busy !== null) {
        return [{
          rule: 'generator-limited',
          kind: 'finding',
          text: `the load generator was itself busy: its own CPU averaged ${Math.round(busy.mean)} % of a core over the phase (past ${OWN_CPU_BUSY} %): it may have sent less or later than asked, and its stalls are in the figures`,
          evidence: { ...place, figures: [...cpuFigures, { name: 'windows measured', value: busy.windows, unit: 'windows' }] },
          confidence: 'medium',
          wouldChange: "the driver thread's own share (the figure is the whole Loadscope process) or the same run with the generator on a core of its own: if its CPU stays past the threshold there, the load is too much for one generator",
          next: 'give the generator a core of its own (fewer busy processes, or `cores` on the server so they do not share), lower the rate, or split the load over client groups',
        }];
      }
      if (!lagging || lag === null || total === null) return [];
      return [{
        rule: 'generator-limited',
        kind: 'finding',
        text: `the tail is Loadscope's, not the server's: the load generator sent late against its own schedule (client queue p99 ${lag.toFixed(1)} ms of the ${total.toFixed(1)} ms total p99) while no request waited for a connection${busy === null ? '' : `, its own CPU averaging ${Math.round(busy.mean)} % of a core`}`,
        evidence: { ...place, figures: [{ name: 'client queue p99', value: lag, unit: 'ms' }, { name: 'total p99', value: total, unit: 'ms' }, { name: 'client queue share of total p99', value: (lag / total) * 100, unit: '%' }, ...cpuFigures] },
        confidence: few ? 'low' : own.length > 0 ? 'high' : 'medium',
        wouldChange: few
          ? `a phase of at least ${MIN_REQUESTS_FOR_P99} requests: with ${phase.count}, the p99 is the slowest few, often the first requests, sent while the connections opened`
          : "the same run on a quiet machine (or with the generator pinned to its own core): if the lag stays, it is the generator's code, not the machine",
        next: 'give the generator a core of its own (fewer busy processes, or `cores` on the server so they do not share), lower the rate, or split the load over client groups',
      }];
    });
  },
};
