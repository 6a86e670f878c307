// Stated limits of a scenario, each with a one-line error where it is checked. They keep validation
// and matrix expansion bounded in memory and stack whatever the input (a mistyped or downloaded file).
//   text size, nesting depth: parse-text.ts (before JSON.parse; the depth check is iterative)
//   servers, phases, templates: the schema (contract/scenario.ts, SCENARIO_LIMITS)
//   cells, cells x servers, expanded size: matrix.ts, before expanding

/** A scenario's text, in bytes (UTF-8). The largest built-in is a few KB. */
export const MAX_SCENARIO_BYTES = 1024 * 1024;
/** Arrays and objects inside each other; a scenario needs about 6. */
export const MAX_NESTING_DEPTH = 64;
/** Server runs in one run: matrix cells times the servers of each cell. */
export const MAX_SERVER_RUNS = 1000;
/** The matrix's cells, each a full copy of the scenario, may together take at most this (bytes of JSON). */
export const MAX_EXPANDED_BYTES = 64 * 1024 * 1024;

/**
 * The offset where `text` first nests deeper than `max` arrays/objects, or -1. Iterative (a deep
 * input cannot overflow the stack) and string-aware; it does not otherwise check the JSON.
 */
export function nestingOverflow(text: string, max = MAX_NESTING_DEPTH): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}
