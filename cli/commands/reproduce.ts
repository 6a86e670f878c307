import type { Command } from 'commander';
import { dbOption, parseRepeat, withEngine } from '../options.js';
import { cancelReason, onStopSignal, signalExitCode, type StopSignal } from '../signals.js';
import { writeStatusLine } from '../terminal-out.js';

interface ReproduceCliOptions {
  quick: boolean;
  fromDb: boolean;
  force: boolean;
  only?: string;
  out: string;
  db?: string;
  repeat: number;
}

export function registerReproduce(program: Command): void {
  program
    .command('reproduce')
    .description("run every seed scenario, store the runs, and write a reproduction document (reproductions.md here, or --out): the write-ups' figures beside ours and whether their shapes hold")
    .option('--quick', "use each scenario's quick profile (a placeholder document, marked as quick)", false)
    .option('--only <seeds>', 'comma-separated seed ids or scenario names, e.g. 000,seed-003-threads')
    .option('--from-db', 'run nothing: regenerate the document from the latest stored run of each scenario', false)
    .option('--out <file>', 'where to write the document (its run reports go in <name>-reports/ beside it)', 'reproductions.md')
    .option('--force', 'replace a document (and its reports) that already exist; without it nothing is replaced', false)
    .option('--repeat <n>', "run each scenario n times (1-50), stored as one group; the document gives each shape's ratio with its 95 % interval across them", parseRepeat, 1)
    .addOption(dbOption())
    .action(async (opts: ReproduceCliOptions) => {
      const { reproduce } = await import('../../reproduce/reproduce.js');
      const { progressLine } = await import('../../reproduce/progress-line.js');
      const err = process.stderr;
      // On a terminal one line is redrawn; in a log, a line per scenario start and end.
      const onProgress: Parameters<typeof reproduce>[1]['onProgress'] = (p) => {
        const line = progressLine(p);
        // Some terminals report 0 columns; then the line is not cut.
        const width = err.columns > 20 ? err.columns - 1 : Infinity;
        if (err.isTTY) writeStatusLine(err, line, width, p.status !== null);
        else if (p.status !== null || (p.server === null && p.runId === null)) err.write(line + '\n');
      };
      // SIGINT, SIGTERM and SIGHUP: the current run is cancelled naming the signal (its measurements kept), exit 128+n.
      const abort = new AbortController();
      let stoppedBy: StopSignal | null = null;
      const offSignals = onStopSignal((signal) => {
        stoppedBy ??= signal;
        abort.abort(cancelReason(signal));
      });
      try {
        const result = await withEngine(opts.db, (engine) =>
          reproduce(engine, {
            quick: opts.quick,
            fromDb: opts.fromDb,
            force: opts.force,
            only: opts.only?.split(',').filter((s) => s.trim() !== ''),
            out: opts.out,
            repeat: opts.repeat,
            command: ['npx loadscope', ...process.argv.slice(2)].join(' '),
            onProgress,
            signal: abort.signal,
          }),
        );
        const missing = result.scenarios.filter((s) => s.run === null);
        for (const s of missing) err.write(`${s.name}: ${s.error ?? 'no run'}\n`);
        if (!result.written) {
          err.write('cancelled: no document written\n');
          process.exitCode = stoppedBy !== null ? signalExitCode(stoppedBy) : 130;
          return;
        }
        process.stdout.write(`wrote ${result.out} (${result.scenarios.length - missing.length} of ${result.scenarios.length} scenarios)\n`);
        if (missing.length > 0 || result.scenarios.some((s) => s.run && s.run.status !== 'completed')) process.exitCode = 1;
        if (stoppedBy !== null) process.exitCode = signalExitCode(stoppedBy);
      } finally {
        offSignals();
      }
    });
}
