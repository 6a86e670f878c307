import type { runSummaryJson } from '../format/run-summary.js';

// `loadscope run --json` (and `show --json`) as a test reads it back: the type of the document the
// CLI prints, asked of its one owner (cli/format/run-summary.ts) rather than written again per test.

export type RunJson = ReturnType<typeof runSummaryJson>;
