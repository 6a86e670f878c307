// The bound on a live window's endpoint lines (issue 36), shared by the driver that folds them
// (engine/driver/measure/endpoint-windows.ts), the event's schema (contract/results.ts) and the chart's note.
// Zod-free and import-free: the driver worker loads it.

/** Lines the live chart gets per phase at most, "other" included. */
export const LIVE_ENDPOINTS = 8;

/** The folded line's name: how many endpoints it holds (template names are unique in a phase; none is bracketed like this by templateName). */
export const otherEndpointsName = (folded: number): string => `(${folded} other endpoints)`;
