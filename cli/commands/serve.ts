import type { Command } from 'commander';
import { LoadscopeError } from '../../contract/errors.js';
import { parseArchitecture, parseArchitectureArgs } from '../server-options.js';

/** The line servers/announce.ts prints when a bundled server is ready. */
const SERVER_READY_LINE = /^loadscope-server \S+ listening on /;

interface ServeFlags {
  port?: string;
  cores?: string;
}

function wholeNumber(flag: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `${flag} must be a whole number in ${min}..${max}, got '${text}'`);
  }
  return n;
}

/**
 * `loadscope serve <architecture> [--option value ...]`: one bundled server, standalone, through the
 * supervisor (own process group, optional core limit, no orphans) until Ctrl-C. It listens on
 * 127.0.0.1 only: Loadscope's servers are for experiments on this machine.
 */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run one bundled server standalone until Ctrl-C (options as `loadscope servers` lists them)')
    .argument('<architecture>', 'single, cluster, autoscale, offload, thread-per-request or thread-pool')
    .option('--port <n>', 'port on 127.0.0.1 (default: a free one)')
    .option('--cores <k>', 'limit the server to K cores (Linux CPU affinity)')
    .allowUnknownOption(true)
    .allowExcessArguments(true)
    .action(async (name: string, flags: ServeFlags, command: Command) => {
      const architecture = parseArchitecture(name);
      const options = parseArchitectureArgs(architecture, command.args.slice(1));
      const port = wholeNumber('--port', flags.port, 0, 65535);
      const cores = wholeNumber('--cores', flags.cores, 1, 1024);
      const [{ launchSpec }, { startScriptServer }] = await Promise.all([
        import('../../servers/launch.js'),
        import('../../engine/supervisor/supervisor.js'),
      ]);
      const launch = launchSpec(architecture, options, { port, host: '127.0.0.1' });
      const live = process.stderr.isTTY;
      const server = await startScriptServer(launch.file, launch.args, { label: architecture, cores }, {
        sampleIntervalMs: live ? 2000 : 0,
        // the server's own ready line says what ours below says: one listening line, not two
        onLine: (line, stream) => {
          if (stream === 'stdout' && SERVER_READY_LINE.test(line)) return;
          (stream === 'stderr' ? process.stderr : process.stdout).write(`${line}\n`);
        },
        onSample: (s) => {
          const extra = s.busy === null ? '' : `, busy ${s.busy}, queued ${s.queue ?? 0}`;
          process.stderr.write(`  cpu ${s.cpuPercent.toFixed(0)}%, rss ${(s.rssBytes / 2 ** 20).toFixed(0)} MiB, ${s.processes} processes${extra}\n`);
        },
      });
      const pid = server.pid === null ? '' : ` (pid ${server.pid})`;
      process.stdout.write(`${architecture} listening on ${server.url}${pid} ${JSON.stringify(options)}${server.cpuList ? ` on cpus ${server.cpuList}` : ''}\n`);
      for (const note of server.notes) process.stdout.write(`note: ${note}\n`);
      process.stdout.write(`try: curl -i '${server.url}/fib?n=30'   stats: ${server.url}/__stats   stop: Ctrl-C\n`);
      const stop = new Promise<'signal'>((resolve) => {
        process.once('SIGINT', () => resolve('signal'));
        process.once('SIGTERM', () => resolve('signal'));
      });
      const outcome = await Promise.race([stop, server.exited]);
      if (outcome === 'signal') {
        await server.stop();
        return;
      }
      throw new LoadscopeError('LS_ERR_SERVER_START', `${architecture} exited by itself (${outcome.reason})${outcome.output.length ? `: ${outcome.output.at(-1)}` : ''}`);
    });
}
