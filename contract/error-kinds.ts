// How a request failed, as the driver codes it in a raw row and every view names it. Its own module
// without zod, so the driver's worker thread, which needs only these names, does not load zod (about
// a tenth of the worker's start-up; contract/results.ts builds the schema from the same list).
// 'extract': a journey's step found nothing to extract (contract/extract.ts); last, so stored codes keep their meaning.
export const ERROR_KINDS = ['refused', 'reset', 'timeout', 'http', 'body', 'other', 'extract'] as const;
export type ErrorKindName = (typeof ERROR_KINDS)[number];
