// A work process that never gets ready, for the handle's start errors (work-process-start.test.ts):
//   throw   an uncaught error while loading (Node prints it and exits 1)
//   kill    SIGKILL itself, as the OOM killer would: no word said
//   quiet   exit 0 without a word (a parent-death watch that misfired)

const mode = process.argv[2];
if (mode === 'throw') throw new Error('the work module could not load its workload');
if (mode === 'kill') process.kill(process.pid, 'SIGKILL');
if (mode === 'quiet') process.exit(0);
process.stderr.write(`failing-work-process: unknown mode ${String(mode)}\n`);
process.exit(2);
