import { installLifecycle } from './lifecycle.js';
import { isWorkMessage, type WorkerReply } from './messages.js';
import { runWork } from './run-work.js';

// A forked work process (autoscale's pool, offload's K workers): runs each work message it gets, one
// after another for synchronous work (its event loop serialises them), and replies with the result
// timed on the shared clock. It dies with its parent (lifecycle.ts, child role, with a watchdog since
// a long fib blocks its event loop).

installLifecycle({ role: 'child', watchdog: true });

function reply(message: WorkerReply): void {
  if (process.connected) process.send?.(message);
}

process.on('message', (message: unknown) => {
  if (!isWorkMessage(message)) return;
  void runWork(message.work).then((done) => reply({ type: 'done', id: message.id, done }));
});

reply({ type: 'ready' });
