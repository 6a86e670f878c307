import { nowMs } from './clock.js';
import { jsonResult, textResult, type Work, type WorkDone, type WorkResult } from './work.js';
import { runApi } from './workloads/api.js';
import { fib } from './workloads/fib.js';
import { leak } from './workloads/leak.js';
import { sleepBlocking, sleepTimer } from './workloads/sleep.js';
import { staticBody } from './workloads/static.js';

// Runs one unit of work where it stands (event loop, worker process or worker thread) and times it on
// the shared clock. The image pipeline (and with it the canvas binary) is loaded on first use, so
// processes and threads that never see an image request start fast.

type ImageModule = typeof import('./workloads/image.js');
let imageModule: Promise<ImageModule> | undefined;

async function runImage(index: number): Promise<WorkResult> {
  imageModule ??= import('./workloads/image.js');
  const { processImage } = await imageModule;
  return jsonResult(processImage(index));
}

async function execute(work: Work): Promise<WorkResult> {
  switch (work.kind) {
    case 'fib':
      return jsonResult({ n: work.n, value: fib(work.n) });
    case 'sleep':
      if (work.block) sleepBlocking(work.ms);
      else await sleepTimer(work.ms);
      return jsonResult({ ms: work.ms, block: work.block });
    case 'leak':
      return jsonResult(leak(work.kb));
    case 'static':
      return { status: 200, contentType: 'application/octet-stream', body: staticBody(work.size) };
    case 'image':
      return runImage(work.index);
    case 'api':
      return runApi(work.call);
  }
}

/** Never rejects: a failing workload becomes a 500 with a one-line reason. */
export async function runWork(work: Work): Promise<WorkDone> {
  if (work.kind === 'image' && !imageModule) {
    // Load the pipeline before the clock starts: module loading is not the work.
    imageModule = import('./workloads/image.js');
    await imageModule.catch(() => undefined);
  }
  const startMs = nowMs();
  let result: WorkResult;
  try {
    result = await execute(work);
  } catch (err) {
    result = textResult(500, `${work.kind} failed: ${err instanceof Error ? err.message : String(err)}`.split('\n')[0] ?? 'failed');
  }
  return { result, startMs, procMs: nowMs() - startMs };
}
