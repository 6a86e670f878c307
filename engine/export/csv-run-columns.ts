import type { RunSummary } from '../../contract/results.js';

// A run's name and note (runs.name / runs.note, `loadscope annotate`) travel in its CSVs as columns
// after every other column, so the header is the first line and Python's csv.DictReader, pandas and
// csv-parse read each file as it is (issue 36: leading "#run_name" comment lines were taken as the
// header). The request CSV carries the name only: a note of up to 4,000 characters repeated on every
// request row would dwarf the data; the note is in the summary CSV (one row per phase), the HTML and
// the PNG. A comparison's CSV carries each run's name as run_<id>_name. Cells go through csvRow
// (quoted, formula-neutralised), and line breaks in a name are folded to spaces.

/** A run's name on one line ('' for a run nobody named). */
export function runNameCell(run: Pick<RunSummary, 'name'>): string {
  return (run.name ?? '').replace(/[\r\n\u2028\u2029]+/g, ' ').trim();
}

/** A run's note as one cell ('' for none); its line breaks stay inside the quoted cell. */
export function runNoteCell(run: Pick<RunSummary, 'note'>): string {
  return (run.note ?? '').trim();
}
