import type { Command } from 'commander';
import { refuseExisting, writeOutput } from '../output-file.js';
import { onStopSignal } from '../signals.js';
import { writeStatusLine } from '../terminal-out.js';
import { credentialsFileFor, writeJourney } from './imported-output.js';

// `loadscope record URL`: Chromium opens at the URL, the person clicks through the journey, and when
// they stop (Enter or Ctrl-C here, or closing the browser window) what the browser sent becomes a
// scenario through the HAR importer (engine/record/). The engine side is imported on use: `--help`
// must not parse playwright.

interface RecordOptions {
  out?: string;
  har?: string;
  force: boolean;
  allowRemote: boolean;
}

const PROGRESS_EVERY_MS = 1000;

/** What is captured so far, on stderr: one line rewritten on a terminal, else a line a second at most (and the last). */
function progressPrinter(): { show(requests: number, bytes: number): void; start(): void; done(): void } {
  const tty = process.stderr.isTTY;
  // quiet until the header is out: the first page's requests come while the browser opens
  let started = false;
  let last = '';
  let shownAt = 0;
  let timer: NodeJS.Timeout | undefined;
  const print = () => {
    timer = undefined;
    shownAt = Date.now();
    if (tty) writeStatusLine(process.stderr, last, (process.stderr.columns || 100) - 1);
    else process.stderr.write(`${last}\n`);
  };
  return {
    show(requests, bytes) {
      last = `recording: ${requests} request(s) captured, ${(bytes / 1024).toFixed(0)} KiB of bodies`;
      if (timer !== undefined || !started) return;
      timer = setTimeout(print, Math.max(0, shownAt + PROGRESS_EVERY_MS - Date.now()));
    },
    start() {
      started = true;
      if (last !== '') print();
    },
    done() {
      if (timer !== undefined) {
        clearTimeout(timer);
        print();
      }
      if (tty && last !== '') process.stderr.write('\n');
    },
  };
}

/** Resolves with why the recording is to stop: Enter on stdin, a stop signal, or the recording ending by itself. */
function stopAsked(ended: Promise<string>): Promise<string> {
  return new Promise((resolve) => {
    let asked = false;
    const once = (why: string) => {
      if (asked) return;
      asked = true;
      process.stdin.off('data', onData);
      // stdin is not read again: let the process end once the journey is written
      process.stdin.destroy();
      resolve(why);
    };
    const onData = (chunk: Buffer) => {
      if (chunk.includes(0x0a) || chunk.includes(0x0d)) once('Enter was pressed');
    };
    // a closed stdin (a script, </dev/null) is not a stop: the window or a signal still ends it
    process.stdin.on('data', onData);
    process.stdin.resume();
    // kept for the rest of the process: a second Ctrl-C while the journey is written must not kill it halfway
    onStopSignal((signal) => once(signal === 'SIGINT' ? 'Ctrl-C' : signal));
    void ended.then(once);
  });
}

export function registerRecord(program: Command): void {
  program
    .command('record')
    .description('record a journey in Chromium: it opens at URL, you click through, and what the browser sent becomes a scenario (stop with Enter, Ctrl-C or by closing the window)')
    .argument('<url>', "where the journey starts; its origin is the scenario's target (requests to other hosts are left out)")
    .option('--out <file>', 'write the scenario here (default: print it); credentials go beside it as <name>.credentials.csv')
    .option('--har <file>', 'also write what was captured as a HAR file (`loadscope import-har` reads it)')
    .option('--force', 'replace --out, --har and the credentials file if they exist', false)
    .option('--allow-remote', 'record a URL outside this machine (the journey sends load there)', false)
    .action(async (url: string, opts: RecordOptions) => {
      const [{ recordTarget }, { openInChromium }, { journeyOfRecording }] = await Promise.all([
        import('../../engine/record/record-target.js'),
        import('../../engine/record/open-in-chromium.js'),
        import('../../engine/record/journey-of-recording.js'),
      ]);
      const target = recordTarget(url, opts.allowRemote);
      // every file it may write is checked before the browser opens: a recording is not lost at the end
      const credentials = credentialsFileFor(opts.out);
      refuseExisting([opts.out, opts.har, credentials.path], opts.force);
      const printer = progressPrinter();
      const { recording, headless, notes, browser } = await openInChromium(target, (p) => printer.show(p.requests, p.bytes));
      process.stderr.write(`Recording ${target.href} in Chromium (${browser})${headless ? ', headless' : ''}.\n`);
      process.stderr.write('Click through the journey, then press Enter (or Ctrl-C) here, or close the browser window, to stop.\n');
      printer.start();

      const why = await stopAsked(recording.ended);
      printer.done();
      process.stderr.write(`stopping: ${why}\n`);
      const captured = await recording.stop();
      if (opts.har !== undefined) writeOutput(opts.har, captured.har, opts.force);
      writeJourney(journeyOfRecording(captured.har, target, [...notes, ...captured.notes], credentials.named), credentials.path, opts);
    });
}
