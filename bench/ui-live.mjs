// The live-view target of issue 13: while a run streams at its highest rate, the Run view's frames
// stay under 16 ms at the 95th percentile. Starts a hello server and the browser host as a user would
// (`loadscope ui --port 0`), opens a scenario file in the Run view (closed loop, 50 users: the most
// requests per second this machine sends, hence the most live data), clicks Run, and once the run
// streams records a Chromium trace (devtools.timeline) of the page for a few seconds.
// From the trace, per frame of the page's main thread (between consecutive animation frames):
//   - work: the time the main thread spent running tasks in that frame (what the view costs);
//   - interval: the time from one frame to the next (what the user sees; 16.7 ms at 60 Hz).
// The verdict is on the work's 95th percentile; intervals above 33 ms count as dropped frames.
// --bundled <architecture>: the load goes to a bundled server instead, so its CPU and memory charts
// draw too (the hello server is external: no samples).
//   node bench/ui-live.mjs [run seconds] [traced seconds] [--bundled single]     (defaults 20, 10)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { browserPath, launchBrowser, startHelloServer, startHost, writeHelloScenario } from './ui-support.mjs';

export const FRAME_TARGET_MS = 16;

const quantile = (sorted, q) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);

// a task the thread ran (the toplevel category's name; the heavier disabled-by-default timeline's)
const TASKS = new Set(['ThreadControllerImpl::RunTask', 'RunTask']);

/** Per-frame work and intervals of the busiest renderer's main thread in a devtools.timeline trace. */
export function framesOf(events) {
  const mainThreads = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const tasksOf = new Map();
  const animationFrames = new Map();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (!mainThreads.has(key)) continue;
    if (e.ph === 'X' && TASKS.has(e.name)) tasksOf.set(key, [...(tasksOf.get(key) ?? []), [e.ts, e.ts + e.dur]]);
    if (e.name === 'FireAnimationFrame') animationFrames.set(key, [...(animationFrames.get(key) ?? []), e.ts]);
  }
  const [thread, callbacks] = [...animationFrames].sort((a, b) => b[1].length - a[1].length)[0] ?? [null, []];
  const tasks = (tasksOf.get(thread) ?? []).sort((a, b) => a[0] - b[0]);
  // a frame runs every animation-frame callback in one task: the frame starts where that task starts
  const frameTasks = new Set();
  let c = 0;
  callbacks.sort((a, b) => a - b);
  for (const [k, [from, to]] of tasks.entries()) {
    while (c < callbacks.length && callbacks[c] < from) c++;
    if (c < callbacks.length && callbacks[c] <= to) frameTasks.add(k);
  }
  const starts = [...frameTasks].map((k) => tasks[k][0]);
  const work = [];
  const intervals = [];
  let t = 0;
  for (let i = 0; i + 1 < starts.length; i++) {
    const [from, to] = [starts[i], starts[i + 1]];
    while (t < tasks.length && tasks[t][1] <= from) t++;
    let busy = 0;
    for (let k = t; k < tasks.length && tasks[k][0] < to; k++) busy += Math.min(to, tasks[k][1]) - Math.max(from, tasks[k][0]);
    work.push(busy / 1000);
    intervals.push((to - from) / 1000);
  }
  const w = [...work].sort((a, b) => a - b);
  const iv = [...intervals].sort((a, b) => a - b);
  return {
    frames: work.length,
    workP50Ms: quantile(w, 0.5),
    workP95Ms: quantile(w, 0.95),
    workMaxMs: w.at(-1) ?? NaN,
    intervalP50Ms: quantile(iv, 0.5),
    intervalP95Ms: quantile(iv, 0.95),
    intervalMaxMs: iv.at(-1) ?? NaN,
    dropped: intervals.filter((x) => x > 33.4).length,
  };
}

/** Per chart: how many draws and their median and max cost (ms). */
function drawCosts(times) {
  const by = new Map();
  for (const [label, ms] of times) by.set(label || '(unlabelled)', [...(by.get(label || '(unlabelled)') ?? []), ms]);
  return [...by].map(([chart, ms]) => {
    const sorted = ms.sort((a, b) => a - b);
    return { chart, draws: sorted.length, medianMs: quantile(sorted, 0.5), maxMs: sorted.at(-1) };
  });
}

/**
 * Of a CPU profile's time inside ECharts' setOption (the outermost call: a chart draw), the part in
 * zrender's paint (`flush`, which setOption calls before it returns) and the rest (the option
 * pipeline: models, component and series views, layout). Method names survive the bundle's minifier.
 */
function drawParts(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const name = (n) => n.callFrame.functionName;
  let setOption = 0;
  let paint = 0;
  const walk = (id, inDraw, inPaint) => {
    const n = byId.get(id);
    const draw = inDraw || name(n).endsWith('.setOption');
    const painting = inPaint || (draw && name(n).endsWith('.flush'));
    const t = self.get(id) ?? 0;
    if (draw) setOption += t;
    if (painting) paint += t;
    for (const c of n.children ?? []) walk(c, draw, painting);
  };
  walk(profile.nodes[0].id, false, false);
  return { setOptionMs: setOption / 1000, paintMs: paint / 1000 };
}

async function traceFor(cdp, ms) {
  const events = [];
  cdp.on('Tracing.dataCollected', (p) => events.push(...p.value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { transferMode: 'ReportEvents', traceConfig: { includedCategories: ['toplevel', 'devtools.timeline'] } });
  await new Promise((resolve) => setTimeout(resolve, ms)); // the traced window itself, not a synchronisation
  await cdp.send('Tracing.end');
  await complete;
  return events;
}

export async function measureUiLive(root, { runSeconds = 20, tracedSeconds = 10, bundled = null } = {}) {
  const executablePath = browserPath();
  if (executablePath === null) return { skipped: 'no Chromium found (apt-get install chromium)' };
  const tmp = mkdtempSync(join(os.tmpdir(), 'loadscope-ui-live-'));
  const server = await startHelloServer();
  let host = null;
  let context = null;
  try {
    const scenario = join(tmp, 'streaming.json');
    writeHelloScenario(scenario, 'bench-ui-live', server.url, { durationMs: runSeconds * 1000 });
    if (bundled !== null) writeFileSync(scenario, JSON.stringify({ name: 'bench-ui-live', servers: [{ architecture: bundled }], phases: [{ name: 'load', executor: 'closed', users: 50, requests: [{ path: '/' }], durationMs: runSeconds * 1000 }] }));
    host = await startHost(root, join(tmp, 'runs.db'));
    context = await launchBrowser(executablePath, join(tmp, 'profile'));
    const page = context.pages()[0] ?? (await context.newPage());
    // each chart draw's cost, as renderer/charts/draw-queue.ts records it when this array exists
    await context.addInitScript(() => {
      globalThis.__loadscopeDrawTimes = [];
    });
    await page.goto(host.url);
    // an animation frame on every vsync, so every frame has a boundary in the trace
    await page.evaluate(() => {
      const tick = () => requestAnimationFrame(tick);
      tick();
    });
    await page.locator('[data-testid="scenario-file-input"]').setInputFiles(scenario);
    await page.waitForFunction(() => document.querySelector('[data-testid="scenario-select"]')?.value === 'file', null, { timeout: 30_000 });
    await page.locator('[data-testid="start-run"]').click();
    await page.locator('[data-testid="run-view"][data-phase="running"]').waitFor({ timeout: 30_000 });
    // the live charts drawing points: the run streams
    await page.locator('[data-testid="run-view"] [data-points]:not([data-points="0"])').first().waitFor({ timeout: 30_000 });
    const cdp = await context.newCDPSession(page);
    // UI_LIVE_PROFILE=file.cpuprofile: the page's CPU profile over the same window, to see what costs
    if (process.env.UI_LIVE_PROFILE) await cdp.send('Profiler.enable').then(() => cdp.send('Profiler.start'));
    const events = await traceFor(cdp, tracedSeconds * 1000);
    let parts = null;
    if (process.env.UI_LIVE_PROFILE) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(process.env.UI_LIVE_PROFILE, JSON.stringify(profile));
      parts = drawParts(profile);
    }
    const draws = drawCosts(await page.evaluate(() => globalThis.__loadscopeDrawTimes.splice(0)));
    const phaseAfter = await page.locator('[data-testid="run-view"]').getAttribute('data-phase');
    if (process.env.UI_LIVE_TRACE) writeFileSync(process.env.UI_LIVE_TRACE, JSON.stringify(events));
    const frames = framesOf(events);
    await page.locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: (runSeconds + 60) * 1000 });
    const rate = await page.evaluate(() => document.querySelector('[data-testid="run-results"]')?.textContent?.match(/([\d,.]+)\s*req\/s/)?.[1] ?? null);
    return { runSeconds, tracedSeconds, streamingThroughout: phaseAfter === 'running', rate, ...frames, draws, drawParts: parts, targetMs: FRAME_TARGET_MS, meets: frames.workP95Ms < FRAME_TARGET_MS };
  } finally {
    await context?.close();
    host?.child.kill();
    server.child.kill();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = join(new URL('.', import.meta.url).pathname, '..');
  const flag = process.argv.indexOf('--bundled');
  const bundled = flag === -1 ? null : (process.argv[flag + 1] ?? 'single');
  const [runSeconds = '20', tracedSeconds = '10'] = process.argv.slice(2).filter((a, i, all) => a !== '--bundled' && all[i - 1] !== '--bundled');
  const r = await measureUiLive(root, { runSeconds: Number(runSeconds), tracedSeconds: Number(tracedSeconds), bundled });
  if (!r.skipped) {
    const ms = (x) => `${x.toFixed(1)} ms`;
    console.log(`ui-live: ${r.frames} frames traced over ${r.tracedSeconds} s while the run streamed${r.streamingThroughout ? '' : ' (the run ended inside the window)'}`);
    console.log(`ui-live: main-thread work per frame p50 ${ms(r.workP50Ms)}, p95 ${ms(r.workP95Ms)}, max ${ms(r.workMaxMs)} (target p95 < ${r.targetMs} ms: ${r.meets ? 'meets' : 'misses'})`);
    for (const d of r.draws) console.log(`ui-live:   ${d.chart}: ${d.draws} draws, median ${ms(d.medianMs)}, max ${ms(d.maxMs)}`);
    if (r.drawParts !== null) console.log(`ui-live: in the profile, ECharts setOption ${ms(r.drawParts.setOptionMs)}, of which zrender's paint ${ms(r.drawParts.paintMs)} (${((100 * r.drawParts.paintMs) / r.drawParts.setOptionMs).toFixed(0)} %; the profiler slows the page)`);
    console.log(`ui-live: frame interval p50 ${ms(r.intervalP50Ms)}, p95 ${ms(r.intervalP95Ms)}, max ${ms(r.intervalMaxMs)}; ${r.dropped} intervals over 33 ms`);
  }
  console.log(JSON.stringify(r));
}
