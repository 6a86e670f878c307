// The scan's exports, typed for the tests that run them (engine/unused-exports.test.ts, engine/test-seams.test.ts).
type Read = (file: string) => string;
/** Every export no file takes and its own file never names, as "path:line name"; `read` may plant an edit in a file's text. */
export function unusedExports(read?: Read): string[];
/** Every value export of a production file that only test code takes, as "path:line name (taken by ...)". */
export function testOnlyExports(read?: Read): string[];
/** Every import of test code by a production file, as "from -> to". */
export function productionImportsOfTestCode(read?: Read): string[];
/** Whether a repo-relative path is test code (a test file, test-support/, e2e/, bench/). */
export function isTestCode(rel: string): boolean;
