import type { Diagnosis } from '../contract/diagnosis.js';
import type { MachineInfo, RunSummary } from '../contract/results.js';
import { Scenario } from '../contract/scenario.js';
import { meanInterval, type MeanInterval } from '../contract/group-stats.js';
import { conclusionLines } from './diagnosis-lines.js';
import { checksFor, evaluateCheck, rangeText, type CheckResult } from './expectations.js';
import type { ShapeCheck } from './shape-checks.js';
import { formatNumber, formatTable } from '../engine/report/format-table.js';
import { renderReport } from '../engine/report/render-report.js';
import { SEEDS, seedScenario } from './seeds.js';
import { rankServers, type CellRanking } from './winners.js';
import { writeupFigures } from './writeup-figures.js';

// docs/reproductions.md as text: for each seed, the write-up's figures beside ours, who wins and by
// what ratio, whether each shape the write-up reports holds, and an honest line where it does not.
// Pure: it reads stored runs and returns markdown, so the document can be regenerated from the store
// without running anything again.

export interface ReproducedScenario {
  name: string;
  /** the stored run, or null where none was made or found */
  run: RunSummary | null;
  /** why there is no run (not found in the store, refused to start) */
  error?: string;
  /** the run's HTML report, relative to the document */
  report?: string;
  /** with `--repeat N`: every run of the group, in order (`run` is the first) */
  repeats?: RunSummary[];
  /** the run's diagnosis (engine/diagnosis, from the stored run); absent: the section says only the write-up's conclusion */
  diagnosis?: Diagnosis;
}

export interface ReproductionDocInput {
  quick: boolean;
  /** the command that made the document */
  command: string;
  /** ISO time the document was written */
  generatedAt: string;
  scenarios: readonly ReproducedScenario[];
  /** the machine, where no run carries one (e.g. every run missing) */
  machine?: MachineInfo;
}

export const QUICK_MARKER = '<!-- loadscope-reproduction: quick -->';
export const FULL_MARKER = '<!-- loadscope-reproduction: full -->';

const num = (v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? '-' : formatNumber(v));
const esc = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The run's scenario as run (quick profile applied), or null where the stored copy no longer parses. */
function runScenario(run: RunSummary): Scenario | null {
  const parsed = Scenario.safeParse(run.scenario);
  return parsed.success ? parsed.data : null;
}

function machineLine(m: MachineInfo): string {
  const gib = (m.memoryBytes / 2 ** 30).toFixed(1);
  return `${m.cpuModel}, ${m.cpus} cores, ${gib} GiB, ${m.platform}, Node ${m.node}, Loadscope ${m.loadscope} (host ${m.hostname})`;
}

function casesText(result: CheckResult): string {
  if (result.cases.length === 1 && result.cases[0]!.label === '') return num(result.cases[0]!.value);
  return result.cases.map((c) => `${c.label}: ${num(c.value)}`).join(', ');
}

function verdict(holds: boolean | null): string {
  if (holds === null) return 'no data';
  return holds ? 'holds' : '**differs**';
}

function rankingText(r: CellRanking): string {
  if (r.ranking.length === 0) return 'no figures';
  const [first, ...rest] = r.ranking;
  const others = rest.map((x) => `${x.server} ${num(x.ratio)}x`).join(', ');
  const missing = r.missing.length > 0 ? `; no figure: ${r.missing.join(', ')}` : '';
  return `**${first!.server}**${others ? `; then ${others}` : ''}${missing}`;
}

function winnersSection(name: string, scenario: Scenario, run: RunSummary): string[] {
  const headline = seedScenario(name)?.headline;
  if (!headline) return [];
  const rankings = rankServers(headline, scenario, run);
  const lines = ['', `#### Who wins (${headline.what}${headline.phase ? `, phase '${headline.phase}'` : ''}; lower is better; ratio to the winner)`, ''];
  if (rankings.length === 1 && rankings[0]!.cell === '') {
    lines.push(rankingText(rankings[0]!));
    return lines;
  }
  lines.push('| cell | winner, then the others (x the winner) |', '| --- | --- |');
  for (const r of rankings) lines.push(`| ${esc(r.cell || '-')} | ${esc(rankingText(r))} |`);
  return lines;
}

function checksSection(results: readonly CheckResult[], quick: boolean): string[] {
  if (results.length === 0) return [];
  const lines = [
    '',
    '#### Shape checks',
    '',
    '| check | the write-up finds | write-up figure | ours | expected | verdict |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    const id = r.check.required ? `${r.check.id} (required)` : r.check.id;
    lines.push(`| ${esc(id)} | ${esc(r.check.claim)} | ${esc(r.check.writeup)} | ${esc(casesText(r))} | ${esc(rangeText(r.check))} | ${verdict(r.holds)} |`);
  }
  const differing = results.filter((r) => r.holds !== true);
  if (differing.length > 0) {
    lines.push('', 'Where the shape differs:', '');
    for (const r of differing) {
      const what = r.holds === null ? 'could not be judged (no figures: see the server runs above)' : `ours ${casesText(r)} where the write-up's shape needs ${rangeText(r.check)}`;
      const why = r.check.caveat
        ? `Why: ${r.check.caveat}`
        : quick
          ? 'Why: not explained; the quick profile is smaller than the write-up\'s sizes, so judge this on a full-size run.'
          : 'Why: not explained yet; this is a real difference on this machine.';
      lines.push(`- ${r.check.id}: ${r.check.claim}: ${what}. ${why}`);
    }
  }
  return lines;
}

/** A check's value in every run of a group, per case, with its 95 % interval and whether all of it lies in the shape's range. */
export interface RepeatedCase {
  label: string;
  values: (number | null)[];
  interval: MeanInterval;
  /** every value the interval allows satisfies the shape; null without an interval */
  wholeIntervalHolds: boolean | null;
}

function inRange(check: Pick<ShapeCheck, 'min' | 'max'>, lo: number, hi: number): boolean {
  return (check.min === undefined || lo >= check.min) && (check.max === undefined || hi <= check.max);
}

export function repeatedCases(check: ShapeCheck, scenario: Scenario, runs: readonly RunSummary[]): RepeatedCase[] {
  const perRun = runs.map((r) => evaluateCheck(check, scenario, r));
  const labels = [...new Set(perRun.flatMap((r) => r.cases.map((c) => c.label)))];
  return labels.map((label) => {
    const values = perRun.map((r) => r.cases.find((c) => c.label === label)?.value ?? null);
    const interval = meanInterval(values.filter((v): v is number => v !== null));
    const wholeIntervalHolds = interval.low === null || interval.high === null ? null : inRange(check, interval.low, interval.high);
    return { label, values, interval, wholeIntervalHolds };
  });
}

function repeatsSection(entry: ReproducedScenario, scenario: Scenario): string[] {
  const runs = entry.repeats ?? [];
  if (runs.length < 2) return [];
  const lines = [
    '',
    `#### Across ${runs.length} runs (${runs.map((r) => r.id).join(', ')})`,
    '',
    "Each shape check's ratio in every run, its mean with a 95 % interval (Student's t) and whether the whole interval satisfies the shape: a shape that holds in one run but whose interval crosses the bound may not hold again.",
    '',
    '| check | case | each run | mean | 95 % interval | expected | whole interval satisfies |',
    '| --- | --- | --- | ---: | --- | --- | --- |',
  ];
  for (const check of checksFor(entry.name)) {
    for (const c of repeatedCases(check, scenario, runs)) {
      const id = check.required ? `${check.id} (required)` : check.id;
      const interval = c.interval.low === null ? '-' : `${num(c.interval.low)} – ${num(c.interval.high)}`;
      const whole = c.wholeIntervalHolds === null ? 'no interval' : c.wholeIntervalHolds ? 'yes' : '**no**';
      lines.push(`| ${esc(id)} | ${esc(c.label || '-')} | ${c.values.map(num).join(', ')} | ${num(c.interval.mean)} | ${interval} | ${esc(rangeText(check))} | ${whole} |`);
    }
  }
  return lines;
}

/** "; across 3 runs: mean 1.59, 95 % interval 0.414 – 2.77, the whole interval does not satisfy it" where the scenario was repeated. */
function acrossRuns(check: ShapeCheck, entry: ReproducedScenario): string {
  const runs = entry.repeats ?? [];
  const scenario = entry.run ? runScenario(entry.run) : null;
  if (runs.length < 2 || scenario === null) return '';
  const cases = repeatedCases(check, scenario, runs).filter((c) => c.interval.low !== null);
  if (cases.length === 0) return '';
  const parts = cases.map((c) => `${c.label ? `${c.label}: ` : ''}mean ${num(c.interval.mean)}, 95 % interval ${num(c.interval.low)} – ${num(c.interval.high)}`);
  const whole = cases.every((c) => c.wholeIntervalHolds === true);
  // where the runs disagree, the check's measured explanation (if it has one) goes with the verdict
  const why = !whole && check.caveat ? `. Why: ${check.caveat.replace(/\.$/, '')}` : '';
  return `; across ${runs.length} runs: ${parts.join('; ')}: the whole interval ${whole ? 'satisfies it' : '**does not** satisfy it'}${why}`;
}

function targetsNote(run: RunSummary): string[] {
  const bad = run.targets.filter((t) => t.status !== 'completed');
  if (bad.length === 0) return [];
  return ['', 'Server runs that did not complete:', '', ...bad.map((t) => `- ${t.label} (cell ${t.cellIndex}): ${t.status}${t.reason ? `: ${t.reason}` : ''}`)];
}

function scenarioSection(entry: ReproducedScenario, quick: boolean): { lines: string[]; results: CheckResult[] } {
  const lines: string[] = [];
  const figures = writeupFigures(entry.name);
  const run = entry.run;
  const scenario = run ? runScenario(run) : null;
  lines.push(`### ${entry.name}${scenario?.title ? `: ${scenario.title.replace(/^Seed \d+[^:]*: /, '')}` : ''}`, '');
  if (!run) {
    lines.push(`Not reproduced: ${entry.error ?? 'no run'}.`);
    return { lines, results: [] };
  }
  const duration = run.durationMs === null ? '' : `, took ${formatDuration(run.durationMs)}`;
  lines.push(`Run ${run.id} (${run.quick ? 'quick profile' : 'full size'}), ${run.status}${run.reason ? ` (${run.reason})` : ''}, started ${run.createdAt}${duration}.`);
  if (entry.report) lines.push('', `Report: [${entry.report}](${entry.report}) (self-contained HTML: the scenario, every phase's figures, every chart; opens from disk).`);
  if (scenario?.description) lines.push('', `> ${scenario.description}`);
  lines.push(...conclusionLines(entry.name, run.id, entry.diagnosis));

  lines.push('', "#### The write-up's figures", '');
  if (figures.tables.length === 0 && figures.notes.length === 0) lines.push('(none transcribed)');
  for (const table of figures.tables) lines.push(formatTable(table, 'markdown'), '');
  for (const note of figures.notes) lines.push(`- ${note}`);

  lines.push('', '#### Ours', '');
  const tables = scenario ? renderReport(scenario, run) : run.report;
  if (tables.length === 0) lines.push('(no report tables)');
  lines.push(tables.map((t) => formatTable(t, 'markdown')).join('\n\n'));
  lines.push(...targetsNote(run));

  const results = scenario ? checksFor(entry.name).map((c) => evaluateCheck(c, scenario, run)) : [];
  if (scenario) lines.push(...winnersSection(entry.name, scenario, run));
  lines.push(...checksSection(results, quick));
  if (scenario) lines.push(...repeatsSection(entry, scenario));
  return { lines, results };
}

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

export function reproductionDoc(input: ReproductionDocInput): string {
  const byName = new Map(input.scenarios.map((s) => [s.name, s]));
  const runs = input.scenarios.flatMap((s) => (s.run ? [s.run] : []));
  const machines = [...new Map(runs.flatMap((r) => (r.machine ? [[machineLine(r.machine), r.machine] as const] : []))).keys()];
  if (machines.length === 0 && input.machine) machines.push(machineLine(input.machine));
  const dates = runs.map((r) => r.createdAt).sort();

  const out: string[] = [input.quick ? QUICK_MARKER : FULL_MARKER, '', '# Reproductions of the seed experiments', ''];
  if (input.quick) {
    out.push(
      '> **QUICK PROFILE: placeholder figures, not a reproduction.** These runs used each scenario\'s `quick` profile (smaller sizes, same shape), so the write-ups\' figures are not comparable in size and several shape checks are expected to differ. The real document comes from a full-size run: `npx loadscope reproduce`.',
      '',
    );
  }
  out.push(
    `Generated ${input.generatedAt} by \`${input.command}\`.`,
    ...(input.command.includes('--from-db')
      ? ['', `The runs themselves were made by \`npx loadscope reproduce${input.quick ? ' --quick' : ''}\` (all of them, or in parts with \`--only\`) into the same database; \`--from-db\` wrote this document from the latest stored run of each scenario.`]
      : []),
    '',
    `Machine: ${machines.length > 0 ? machines.join('; ') : 'unknown'}.`,
    '',
    dates.length === 0
      ? 'No runs.'
      : input.scenarios.some((sc) => (sc.repeats?.length ?? 0) > 1)
        ? `Runs made between ${dates[0]} and ${dates[dates.length - 1]}; the tables show each scenario's first run, and "Across N runs" each shape's ratio in every run with its 95 % interval.`
        : `Runs made between ${dates[0]} and ${dates[dates.length - 1]}; each figure is one run (\`npx loadscope reproduce --repeat 3\` runs each scenario three times and states each shape's interval across them).`,
    '',
    'Each write-up is a reference for the shape (who wins, by roughly how much), not for absolute values: its hardware is not ours. The checks below state each shape as a ratio with the range it allows; their definitions are in Loadscope\'s source, reproduce/shape-checks.ts, and the write-ups\' transcribed figures in reproduce/writeup-figures.ts.',
    '',
  );

  const sections: string[] = [];
  const all: Array<{ name: string; run: RunSummary | null; results: CheckResult[]; entry: ReproducedScenario }> = [];
  for (const seed of SEEDS) {
    const entries = seed.scenarios.flatMap((sc) => {
      const entry = byName.get(sc.name);
      return entry ? [entry] : [];
    });
    if (entries.length === 0) continue;
    // named, not linked: the write-ups are the project's seed texts and do not ship beside a document
    sections.push('', `## Seed ${seed.id}: ${seed.title}`, '', `Write-up: seed ${seed.id}'s text (\`${seed.source}\`, not shipped with Loadscope; its figures are transcribed below).`, '');
    for (const entry of entries) {
      const { lines, results } = scenarioSection(entry, input.quick);
      sections.push(...lines, '');
      all.push({ name: entry.name, run: entry.run, results, entry });
    }
  }

  out.push('## Summary', '', '| scenario | run | status | shape checks holding | differing |', '| --- | ---: | --- | --- | --- |');
  for (const { name, run, results } of all) {
    const held = results.filter((r) => r.holds === true).length;
    const judged = results.filter((r) => r.holds !== null).length;
    const differing = results.filter((r) => r.holds === false).map((r) => r.check.id);
    out.push(`| ${name} | ${run ? run.id : '-'} | ${run ? run.status : 'not run'} | ${held} of ${judged}${judged < results.length ? ` (${results.length - judged} without data)` : ''} | ${differing.join(', ') || '-'} |`);
  }

  const required = all.flatMap(({ results, entry }) => results.filter((r) => r.check.required).map((r) => ({ r, entry })));
  if (required.length > 0) {
    out.push('', 'The shapes issue 5 requires:', '');
    for (const { r, entry } of required) out.push(`- ${r.check.claim} (${r.check.scenario}): ours ${casesText(r)}, expected ${rangeText(r.check)}: ${verdict(r.holds)}${acrossRuns(r.check, entry)}.`);
  }
  out.push(...sections);
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n';
}
