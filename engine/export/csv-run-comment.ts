import type { RunSummary } from '../../contract/results.js';
import { csvText } from './csv-cell.js';

// A run's name and note (runs.name / runs.note, `loadscope annotate`) at the top of its CSVs, as
// comment lines a reader skips with one option (pandas comment='#', csv-parse comment: '#'): a
// column would repeat a note of up to 4,000 characters on every request of the request CSV.
// Each line is "#run_name,<text>" or "#run_note,<one line of the note>": the text is a CSV cell
// (quoted, formula-neutralised), and a line break never ends a comment early, so a note cannot add
// a data row; a spreadsheet without the option shows them as two-cell rows.

/**
 * The comment lines naming the run; none for a run without a name or note. `key` names the run in
 * them: "run" in a run's own CSVs, "run_12" in a comparison's (its value columns are run_12, ...).
 */
export function runCommentLines(run: Pick<RunSummary, 'name' | 'note'>, key = 'run'): string[] {
  const lines: string[] = [];
  const name = (run.name ?? '').replace(/[\r\n\u2028\u2029]+/g, ' ').trim();
  if (name !== '') lines.push(`#${key}_name,${csvText(name)}`);
  for (const line of (run.note ?? '').split(/\r\n|[\r\n\u2028\u2029]/)) {
    if (line.trim() !== '') lines.push(`#${key}_note,${csvText(line)}`);
  }
  return lines;
}
