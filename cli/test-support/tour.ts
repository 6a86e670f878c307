// The README's one-screen tour as the tour test reads it (cli/readme-tour.test.ts): the ```sh block
// under "## A one-screen tour", one command a line, each split into its words as a shell would
// (quotes, one `> file`) and its comment read for the marks the README gives a line.

export interface TourLine {
  /** 1-based position in the block */
  index: number;
  /** the command as written, without its comment */
  text: string;
  /** the command's words, quotes removed, without a `> file` */
  words: string[];
  /** `> file`: where the line's stdout goes */
  stdoutFile: string | null;
  comment: string;
  /** "(long: not run by the tour test)": why it is skipped */
  skip: string | null;
  /** "(long: the tour test adds ARGS)": the words added */
  added: string[];
  /** "(until Ctrl-C)": run until it prints its URL, then SIGINT */
  untilCtrlC: boolean;
  /** "(exit N on ...)": exit codes the line names as outcomes besides 0 */
  alsoExits: number[];
  /** "(needs k6)" */
  needsK6: boolean;
  /** "run 4" / "runs 5-7" at the comment's start: the run ids the line makes */
  runIds: { first: number; last: number } | null;
}

/** Words as the shell splits them: '...' literal, "..." with \" and \\ escapes, everything else on blanks. */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === ' ' || c === '\t') {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed ' in: ${command}`);
      word = (word ?? '') + command.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let text = '';
      for (i++; i < command.length && command[i] !== '"'; i++) text += command[i] === '\\' && (command[i + 1] === '"' || command[i + 1] === '\\') ? command[++i] : command[i];
      if (i >= command.length) throw new Error(`unclosed " in: ${command}`);
      word = (word ?? '') + text;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/** Where a line's comment starts: the first ` #` outside quotes, or -1. */
function commentStart(line: string): number {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || line[i - 1] === ' ')) return i;
  }
  return -1;
}

/** A shell glob (`pod-*.json`) as a regular expression over file names. */
export function globPattern(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
}

export function parseTour(readme: string): TourLine[] {
  const heading = readme.indexOf('## A one-screen tour');
  const start = readme.indexOf('```sh\n', heading);
  const end = readme.indexOf('\n```', start + 6);
  if (heading < 0 || start < 0 || end < 0) throw new Error('README.md has no "## A one-screen tour" ```sh block');
  return readme
    .slice(start + 6, end)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((raw, i): TourLine => {
      const at = commentStart(raw);
      const text = (at < 0 ? raw : raw.slice(0, at)).trim();
      const comment = at < 0 ? '' : raw.slice(at + 1).trim();
      let words = shellWords(text);
      let stdoutFile: string | null = null;
      const redirect = words.indexOf('>');
      if (redirect >= 0) {
        stdoutFile = words[redirect + 1] ?? null;
        words = words.slice(0, redirect);
      }
      const adds = /\(long: the tour test adds ([^)]+)\)/.exec(comment);
      const ids = /^runs? (\d+)(?:-(\d+))?\b/.exec(comment);
      return {
        index: i + 1,
        text,
        words,
        stdoutFile,
        comment,
        skip: /\(long: not run by the tour test\)/.test(comment) ? 'long: not run by the tour test' : null,
        added: adds ? shellWords(adds[1]!) : [],
        untilCtrlC: comment.includes('(until Ctrl-C)'),
        alsoExits: [...comment.matchAll(/\(exit (\d+) on /g)].map((m) => Number(m[1])),
        needsK6: comment.includes('(needs k6)'),
        runIds: ids ? { first: Number(ids[1]), last: Number(ids[2] ?? ids[1]) } : null,
      };
    });
}
