import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { PhaseResult } from '../../contract/results.js';
import type { LoadGenerator } from '../run/load-generator.js';
import { collectK6, targetKey } from './import/collect.js';
import { engineNote, K6_MEASUREMENT_NOTE, savePhases, sinkFor } from './import/import-k6.js';
import { writeRows, type TargetSink } from './import/write-rows.js';
import { K6_THRESHOLDS_CROSSED, runK6Process } from './k6-process.js';
import { k6TlsFor } from './k6-tls.js';
import { onlyGrpc } from './k6-carry.js';
import { k6Script, segmentCount } from './k6-script.js';
import { k6DataFiles } from './k6-data.js';
import { dataRanOutNotes } from './k6-data-out.js';
import { LiveWindows } from './live-windows.js';
import { instanceArgs } from './instance-segments.js';
import { k6LoopbackUrl } from './k6-target.js';
import { probeTarget } from '../driver/transport/tls.js';
import { driverProtocol, driverTls } from '../run/target-tls.js';
import { phaseName as nameOfPhase } from '../../contract/phase.js';

// `loadscope run --engine k6`: the orchestrator starts and watches each server as for a native run,
// and this generator sends the load with a local k6 instead of the driver: the scenario's script for
// that server, its segments one after another (each by one k6 process, or N at once with
// `--instances N`), points streamed to the live view and to a file per process, which are then
// imported into the server run exactly as `import-k6` would: one phase accumulator fed by every
// instance's points (histograms merged, never percentiles averaged), and the instance dimension.

/** The target k6 is given and its `hosts`: with a servername, the URL names it and `hosts` maps it to the loopback address. */
function servernameTarget(url: string, servername: string | undefined): { target: string; hosts: Record<string, string> } {
  if (servername === undefined) return { target: url, hosts: {} };
  const u = new URL(url);
  const address = u.hostname.replace(/^\[|\]$/g, '');
  u.hostname = servername;
  return { target: u.toString().replace(/\/$/, ''), hosts: { [servername]: address } };
}

/** The mean of the readings there are, or null. */
function meanOf(readings: readonly (number | null)[]): number | null {
  const known = readings.filter((r): r is number => r !== null);
  return known.length === 0 ? null : Math.round((known.reduce((a, b) => a + b, 0) / known.length) * 10) / 10;
}

/**
 * A generator for one run; it keeps the run's engine note (what k6 dropped, per server) up to date.
 * `instances`: k6 processes per segment, started at once, each with its execution segment
 * (instance-segments.ts); their points merge in the live windows and in the one accumulator per phase.
 */
export function k6Generator(k6: string, runNote: { runId?: number; parts: string[] }, instances = 1): LoadGenerator {
  return async ({ ctx, url: serverUrl, cert, signal, setT0, writes, phaseEnded }) => {
    // k6 is only ever pointed at this machine, whatever the run's consent; without consent its
    // block list also keeps whatever it connects to there (k6-block-list.ts).
    const url = await k6LoopbackUrl(serverUrl);
    // k6 counts a certificate it does not verify as an `other` error per request and exits 0: the
    // native driver's handshake first, to the address k6 is given with the TLS k6 is given, ends
    // the run before any load with the native run's line instead
    await probeTarget(url, driverTls(ctx.server, cert), driverProtocol(ctx.server), ctx.allowRemote ?? false);
    const label = ctx.server.label ?? ctx.server.architecture;
    const dir = mkdtempSync(join(tmpdir(), 'loadscope-k6-'));
    try {
      const script = join(dir, 'script.js');
      // the server's TLS files were made absolute when the run was prepared
      const tls = k6TlsFor(ctx.server, Math.max(0, ctx.scenario.servers.indexOf(ctx.server)), null, 'run', cert, onlyGrpc(ctx.scenario));
      const data = ctx.data ?? [];
      // the data files' rows beside the script, where it opens them (k6-data.ts)
      for (const f of k6DataFiles(ctx.scenario, data)) writeFileSync(join(dir, f.name), f.text);
      const caFile = tls?.ca === undefined ? undefined : join(dir, 'ca', 'ca.pem');
      if (caFile !== undefined) {
        mkdirSync(dirname(caFile));
        writeFileSync(caFile, tls!.ca!);
      }
      // tls.servername: k6 connects to that name (its SNI and the name verified), which `hosts` maps to the address
      const { target, hosts } = servernameTarget(url, tls?.servername);
      writeFileSync(script, k6Script(ctx.scenario, { target, cell: 0, server: label, allowRemote: ctx.allowRemote ?? false, data, hosts, ...(tls && { tls }) }));
      const t0Ms = Date.now();
      setT0(t0Ms);
      const phaseName = (i: number) => nameOfPhase(ctx.scenario.phases[i] ?? {}, i);
      const live = new LiveWindows(ctx.runId, ctx.targetId, ctx.emit, t0Ms * 1000, phaseName, instances);
      const files: string[] = [];
      const cpu: (number | null)[][] = Array.from({ length: instances }, () => []);
      let thresholds = false;
      let failure: string | null = null;
      for (let s = 0; s < segmentCount(ctx.scenario) && !signal.aborted; s++) {
        // the instances of a segment start at once; one that fails stops its siblings
        const segment = new AbortController();
        const stopSegment = () => segment.abort();
        signal.addEventListener('abort', stopSegment, { once: true });
        const exits = await Promise.all(
          Array.from({ length: instances }, async (_, i) => {
            const outFile = join(dir, instances === 1 ? `segment-${s}.json` : `segment-${s}-instance-${i}.json`);
            files.push(outFile);
            live.instanceStarted(i);
            const exit = await runK6Process({ k6, script, outFile, env: { LOADSCOPE_TARGET: target, LOADSCOPE_SEGMENT: String(s) }, args: instanceArgs(i, instances), ...(caFile !== undefined && { caFile }), signal: segment.signal, onRequest: (r) => live.add(r, i), onStreamMessage: (m, atUs) => live.addStream(m, atUs, i) });
            live.instanceEnded(i);
            cpu[i]!.push(exit.cpuPercent);
            if (!exit.cancelled && exit.code !== 0 && exit.code !== K6_THRESHOLDS_CROSSED) segment.abort();
            return { i, exit };
          }),
        );
        signal.removeEventListener('abort', stopSegment);
        for (const { i, exit } of exits) {
          if (exit.code === K6_THRESHOLDS_CROSSED) thresholds = true;
          else if (exit.code !== 0 && !exit.cancelled && failure === null) {
            const who = instances === 1 ? 'k6' : `k6 instance ${i}`;
            failure = `${who} exited with code ${exit.code}: ${exit.stderrTail.slice(-3).join(' | ') || 'no output'}`;
          }
        }
        if (failure !== null || exits.some((e) => e.exit.cancelled)) break;
      }
      live.finish(Date.now() - t0Ms);

      const collected = await collectK6(files);
      const sinks = new Map<string, TargetSink>();
      let requests = 0;
      const phases: PhaseResult[] = [];
      for (const acc of collected.targets) {
        const sink = sinkFor(writes, ctx.targetId, acc, t0Ms * 1000);
        // k6's phase results exist only once its points are read back: thresholds are checked then.
        for (const phase of savePhases(writes.phase, acc, ctx.scenario, sink.t0Us)) {
          phases.push(phase);
          phaseEnded(phase);
        }
        sinks.set(targetKey(acc.cell, acc.server), sink);
        if (instances > 1) writes.instances(acc.instances.facts(sink.t0Us, (i) => meanOf(cpu[i] ?? []), instances));
        requests += [...acc.phases.values()].reduce((n, p) => n + p.count - p.dropped, 0);
      }
      await writeRows(files, sinks);
      // a unique data file that ran out says so, as natively
      for (const n of await dataRanOutNotes(files, ctx.scenario, data)) runNote.parts.push(`${label}: ${n}.`);
      const note = engineNote({ ...collected, files: 1 }, () => label).slice(K6_MEASUREMENT_NOTE.length).trim();
      if (note) runNote.parts.push(note);
      if (thresholds) runNote.parts.push(`k6 thresholds were crossed on ${label}.`);
      writes.engineNote([K6_MEASUREMENT_NOTE, ...runNote.parts].join(' '));
      return { requests, phases, failure };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
