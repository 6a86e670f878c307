import { ClusterStatsClient } from './cluster-stats.js';
import { createFront, listen } from './http-front.js';
import { transportFromEnv } from './front-transport.js';
import { InProcessDispatcher } from './in-process.js';
import { installLifecycle } from './lifecycle.js';

// A node:cluster worker of the cluster architecture: HTTP and the work in its own event loop. The
// primary passes the listen address in the environment; the port is shared (0 = the primary picks
// one for all workers). /__stats is answered by the primary, which sums every worker's counters.

installLifecycle({ role: 'child', watchdog: true });

const dispatcher = new InProcessDispatcher(0, () => {
  throw new Error('stats come from the primary');
});
const client = new ClusterStatsClient(dispatcher.counters);
const server = createFront({ dispatch: (work) => dispatcher.dispatch(work), stats: () => client.request() }, transportFromEnv());
await listen(server, { port: Number(process.env.LOADSCOPE_LISTEN_PORT ?? 0), host: process.env.LOADSCOPE_LISTEN_HOST ?? '127.0.0.1' });
