import { spawn } from 'node:child_process';
import type { ReaperArgs, ReaperMessage } from './reaper-protocol.js';

// The watchdog an external command runs under: `node dist/engine/supervisor/reaper.js '<json>'`.
// The supervisor spawns it detached, so it leads a new process group; it spawns the user's command
// in that same group (stdout/stderr passed straight through, so the supervisor sees the command's
// lines) and then only watches. An arbitrary command does not notice its parent dying, so the reaper
// does: when the supervisor dies (IPC channel closed, or reparented), it kills the whole group.
//
//   supervisor --(detached, IPC)--> reaper  [group leader, pgid = reaper pid]
//                                     `--> command --> its children ...   [same group]
//
// Messages to the supervisor: {type:'spawned', pid} | {type:'spawn-error', code, message} |
// {type:'exited', code, signal}. The reaper exits when the command exits (the supervisor then clears
// whatever the command left in the group). SIGTERM to the group reaches the command directly; the
// reaper ignores it and waits for the command, so its exit reports the command's.

const GRACE_MS = 1500;
const PPID_POLL_MS = 250;

function send(message: ReaperMessage): void {
  if (process.send && process.connected) process.send(message);
}

function killGroup(signal: NodeJS.Signals): void {
  try {
    // The reaper was spawned detached, so its pid is its group's id.
    process.kill(-process.pid, signal);
  } catch {
    // group already gone
  }
}

function main(): void {
  const args = JSON.parse(process.argv[2] ?? '{}') as ReaperArgs;
  const [file, ...rest] = args.command ?? [];
  if (!file) {
    send({ type: 'spawn-error', code: 'EINVAL', message: 'no command given' });
    process.exit(2);
  }
  const parentPid = process.ppid;
  let childExited = false;

  let parentGone = false;
  // Once: the IPC channel closing and the ppid poll may both notice. The SIGKILL timer is not
  // unref'd: the reaper stays until it has cleared the group (the SIGKILL ends the reaper too), even
  // when the command itself exits at the SIGTERM but left children behind.
  const onParentGone = () => {
    if (parentGone) return;
    parentGone = true;
    clearInterval(poll);
    killGroup('SIGTERM');
    setTimeout(() => killGroup('SIGKILL'), childExited ? 0 : GRACE_MS);
  };
  process.on('disconnect', onParentGone);
  const poll = setInterval(() => {
    if (process.ppid !== parentPid) onParentGone();
  }, PPID_POLL_MS);
  poll.unref();
  // The group gets SIGTERM from the supervisor's stop(); the command handles it, the reaper waits.
  process.on('SIGTERM', () => undefined);
  process.on('SIGINT', () => undefined);
  process.on('SIGHUP', () => undefined);

  const child = spawn(file, rest, { cwd: args.cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('spawn', () => send({ type: 'spawned', pid: child.pid ?? 0 }));
  // Done: let the event loop drain (the IPC channel was the last thing keeping it up).
  const finish = (exitCode: number) => {
    childExited = true;
    process.exitCode = exitCode;
    process.off('disconnect', onParentGone);
    if (process.connected) process.disconnect();
  };
  child.on('error', (err: NodeJS.ErrnoException) => {
    send({ type: 'spawn-error', code: err.code ?? 'ERROR', message: err.message });
    finish(127);
  });
  child.on('exit', (code, signal) => {
    send({ type: 'exited', code, signal });
    finish(code ?? 1);
  });
}

main();
