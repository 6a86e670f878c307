import { Command, CommanderError } from 'commander';
import { LoadscopeError, toApiError } from '../contract/errors.js';
import { verbs, verbsFor } from './commands/index.js';
import { dropOutputOnceReaderGone } from './closed-output.js';
import { guardTerminalText } from './terminal-out.js';
import { version } from './version.js';

// Before anything prints: every verb's text (and commander's, and console's) is escaped for the terminal.
guardTerminalText(process.stdout);
guardTerminalText(process.stderr);
// `loadscope list | head`: a reader that went away ends the output, not the verb (closed-output.ts)
dropOutputOnceReaderGone(process.stdout);
dropOutputOnceReaderGone(process.stderr);

// `npx loadscope <verb>`: every verb has --help and exits non-zero with a one-line reason on bad input
// (2 for bad input, 1 for a run that failed).
const program = new Command('loadscope')
  .description('Loadscope: see how server concurrency architectures behave under load')
  .version(version())
  .showHelpAfterError('(add --help for usage)')
  .exitOverride();

// Only the verb this command line names is imported (see verbsFor): start-up is most of what
// `--version`, `list` or `validate` cost.
for (const register of await Promise.all(verbsFor(process.argv.slice(2)).map((name) => verbs[name]!()))) register(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exit(err.exitCode === 0 ? 0 : 2);
  }
  if (err instanceof LoadscopeError) {
    console.error(`loadscope: ${err.message} (${err.code})`);
    process.exit(2);
  }
  // Anything else still carries a code (SQLite's errors become LS_ERR_DB with SQLite's code).
  const { code, message } = toApiError(err);
  console.error(`loadscope: ${message} (${code})`);
  process.exit(code === 'LS_ERR_DB' ? 2 : 1);
}
