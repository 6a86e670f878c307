import { describe, expect, it } from 'vitest';
import { serverDistFile } from './launch.js';
import { WorkProcess } from './work-process-handle.js';

// A work process that exits before it is ready (issue 36: `serve` failed once in five with "work
// process exited before it was ready" and no cause): the reason carries its exit code or signal and
// the last lines it wrote to stderr, or says it printed nothing; a work process whose file is missing
// (reproduced: a `serve` started while `npm run build` emptied and rewrote dist/) says so.

const FAILING = serverDistFile('test-support/failing-work-process');

function startFailing(mode: string): Promise<void> {
  const work = new WorkProcess(FAILING, [mode]);
  return work.ready;
}

describe('a work process that exits before it is ready', () => {
  it('throws while loading: the reason has its exit code and its error line, not the stack frames', async () => {
    const err = await startFailing('throw').then(() => null, (e: unknown) => e as Error);
    expect(err?.message).toMatch(/^work process \d+ exited before it was ready \(exit code 1\); its last output: .*Error: the work module could not load its workload/);
    expect(err?.message).not.toMatch(/ at |Node\.js v/);
  });

  it('is killed by a signal without a word: the signal, and that it printed nothing', async () => {
    await expect(startFailing('kill')).rejects.toThrow(/^work process \d+ exited before it was ready \(signal SIGKILL\); it printed nothing$/);
  });

  it('its file is missing (a `serve` started while `npm run build` rewrote dist/): the reason names the file and the rebuild', async () => {
    const missing = serverDistFile('test-support/no-such-work-process');
    await expect(new WorkProcess(missing).ready).rejects.toThrow(/^work process \d+ exited before it was ready \(exit code 1\); its file .*no-such-work-process\.js is missing: dist\/ is being rebuilt or was never built \(`npm run build`\)$/);
  });

  it('exits 0 without a word: exit code 0, and that it printed nothing', async () => {
    await expect(startFailing('quiet')).rejects.toThrow(/^work process \d+ exited before it was ready \(exit code 0\); it printed nothing$/);
  });
});
