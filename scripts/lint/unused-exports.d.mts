// The scan's one export, typed for the test that runs it (engine/unused-exports.test.ts).
/** Every export no file takes and its own file never names, as "path:line name"; `read` may plant an edit in a file's text. */
export function unusedExports(read?: (file: string) => string): string[];
