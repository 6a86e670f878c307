import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { pointFromJsonLine } from './import/read-points.js';
import { isDropped, requestOfPoint, type K6Request } from './import/k6-request.js';
import { streamOfPoint, type K6StreamPoint } from './import/k6-stream-point.js';
import { watchCpu } from './process-cpu.js';

// One `k6 run`: its points come on stdout (`--out json=-`), each line is written to `outFile` (what is
// imported afterwards) and handed to `onRequest` for the live view. A cancel sends SIGINT, which k6
// answers by stopping its scenarios and flushing its outputs; SIGKILL follows if it does not exit.
// k6 always ends on its own too: every generated scenario has a duration or a maxDuration.

export interface K6ProcessOptions {
  k6: string;
  script: string;
  outFile: string;
  env: Record<string, string>;
  /** a CA file k6 trusts, alone (Go reads SSL_CERT_FILE and SSL_CERT_DIR): a bundled server's own certificate or tls.ca */
  caFile?: string;
  /** further `k6 run` flags (an instance's execution segment and tag) */
  args?: readonly string[];
  signal: AbortSignal;
  onRequest: (r: K6Request) => void;
  /** a stream's message (issue 41), with the time k6 stamped it (epoch µs) */
  onStreamMessage?: (m: K6StreamPoint, atUs: number) => void;
}

export interface K6Exit {
  code: number | null;
  cancelled: boolean;
  /** the last lines k6 wrote to stderr (for a failure's reason) */
  stderrTail: string[];
  /** its mean CPU, % of one core (process-cpu.ts); null where not known */
  cpuPercent: number | null;
}

/** k6 exits 99 when thresholds were crossed: the run itself went fine. */
export const K6_THRESHOLDS_CROSSED = 99;

export async function runK6Process(o: K6ProcessOptions): Promise<K6Exit> {
  const args = ['run', '--quiet', '--no-color', '--no-usage-report', '--summary-mode=disabled', '--out', 'json=-'];
  for (const [k, v] of Object.entries(o.env)) args.push('-e', `${k}=${v}`);
  args.push(...(o.args ?? []), o.script);
  // the CA's folder holds only it, so no system CA is trusted beside it (as the native driver trusts only it)
  const trust = o.caFile === undefined ? {} : { SSL_CERT_FILE: o.caFile, SSL_CERT_DIR: dirname(o.caFile) };
  const child = spawn(o.k6, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...trust } });
  const cpu = watchCpu(child.pid);
  const out = createWriteStream(o.outFile);
  const stderrTail: string[] = [];
  createInterface({ input: child.stderr, crlfDelay: Infinity }).on('line', (line) => {
    stderrTail.push(line);
    if (stderrTail.length > 20) stderrTail.shift();
  });
  let killTimer: NodeJS.Timeout | undefined;
  const onAbort = () => {
    child.kill('SIGINT');
    killTimer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    killTimer.unref();
  };
  if (o.signal.aborted) onAbort();
  else o.signal.addEventListener('abort', onAbort, { once: true });
  const exited = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
  try {
    for await (const line of createInterface({ input: child.stdout, crlfDelay: Infinity })) {
      if (!out.write(line + '\n')) await once(out, 'drain');
      const p = pointFromJsonLine(line);
      if (p === null || p === 'skip') continue;
      const m = streamOfPoint(p);
      if (m !== null) {
        o.onStreamMessage?.(m, p.timeUs);
        continue;
      }
      const r = requestOfPoint(p);
      // the script's loadscope_total only: k6's own http_req_duration for the same request would count it twice
      if (r !== null && !isDropped(r) && r.source === 'loadscope') o.onRequest(r);
    }
    const cpuPercent = cpu.stop();
    const [code] = await exited;
    return { code, cancelled: o.signal.aborted, stderrTail, cpuPercent };
  } finally {
    cpu.stop();
    o.signal.removeEventListener('abort', onAbort);
    clearTimeout(killTimer);
    out.end();
    await once(out, 'finish').catch(() => undefined);
  }
}
