// The scan's export, typed for the test that runs it (engine/pasted-figures.test.ts).
/** Every sentence of a production comment that pastes a benchmark figure, as "path:line sentence"; `read` may plant an edit. */
export function pastedFigures(read?: (file: string) => string): string[];
