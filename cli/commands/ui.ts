import type { Command } from 'commander';
import { LoadscopeError } from '../../contract/errors.js';
import { cancelReason, onStopSignal, signalExitCode, type StopSignal } from '../signals.js';
import { dbOption } from '../options.js';
import { startBrowserHost } from '../host/browser-host.js';
import { openBrowser } from '../host/open-browser.js';

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `--port must be a whole number from 0 to 65535 (0 picks a free one), got '${value}'`);
  }
  return port;
}

export function registerUi(program: Command): void {
  program
    .command('ui')
    .description('serve the workbench to a browser on 127.0.0.1 (the same UI and engine as the desktop app)')
    .option('--port <n>', 'the port to listen on (0 picks a free one)', '0')
    .option('--open', 'open the default browser where one is configured', false)
    .addOption(dbOption())
    .action(async (opts: { port: string; open: boolean; db?: string }) => {
      const port = parsePort(opts.port);
      const { createEngine } = await import('../../engine/engine.js');
      const engine = createEngine({ dbPath: opts.db, watchRuns: true });
      let host;
      try {
        host = await startBrowserHost({ engine, port });
      } catch (err) {
        await engine.close();
        if (err instanceof Error && 'code' in err && err.code === 'EADDRINUSE') {
          throw new LoadscopeError('LS_ERR_BAD_REQUEST', `port ${port} on 127.0.0.1 is in use; pick another with --port (0 picks a free one)`);
        }
        throw err;
      }
      // Listening before the URL is printed: stopped the moment it is read (the tour test does), it
      // still stops cleanly rather than being killed by the default action of the signal.
      const stopped = new Promise<StopSignal>((resolve) => onStopSignal(resolve));
      process.stdout.write(`Loadscope workbench: ${host.url}\n`);
      if (opts.open) {
        const why = openBrowser(host.url);
        if (why) process.stdout.write(`(not opening a browser: ${why}; open the URL above)\n`);
      }
      process.stdout.write('Press Ctrl+C to stop (running servers are stopped too).\n');

      // Stays up until a signal; then cancels any run, stops its servers and closes the store. The
      // handlers stay installed, so a second signal (a terminal sends one to the whole process group,
      // and npm start forwards its own) cannot kill the process halfway through stopping servers.
      const signal = await stopped;
      process.stdout.write(`\nLoadscope workbench: stopping (${signal})\n`);
      const forced = setTimeout(() => process.exit(1), 15_000);
      forced.unref();
      await host.close();
      await engine.close(cancelReason(signal));
      process.exit(signalExitCode(signal));
    });
}
