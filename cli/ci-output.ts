import { ciJunit } from './format/ci-junit.js';
import { ciMarkdown, type CiSummary } from './format/ci-markdown.js';
import { writeOutput } from './output-file.js';

// What `run` and `compare` hand CI besides their exit code: --markdown and --junit files.

/** --fail-on, repeatable. */
export function collectRule(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Writes the files asked for; "wrote" goes to stderr, so --json on stdout stays one document. */
export function writeCiFiles(opts: { markdown?: string; junit?: string; force: boolean }, summary: CiSummary): void {
  if (opts.markdown) {
    writeOutput(opts.markdown, ciMarkdown(summary), opts.force);
    process.stderr.write(`wrote ${opts.markdown}\n`);
  }
  if (opts.junit) {
    writeOutput(opts.junit, ciJunit(summary), opts.force);
    process.stderr.write(`wrote ${opts.junit}\n`);
  }
}
