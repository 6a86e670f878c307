// What one request may build and keep: the bounds the driver holds whatever the scenario or the
// target sends (issue 35), in one place, so the validator, the driver and the messages agree.
// Each is crossed with a one-line error or an error kind:
//   a built request (path, headers, body) over MAX_REQUEST_BYTES: refused at validation when its
//     values are known (engine/scenario/request-size.ts: a JSON-path error naming the template);
//     at run time not built nor sent, an 'other' error of that request (engine/driver/requests/request-compile.ts)
//   a body kept for a flow's json or regex extract over MAX_EXTRACT_BODY_BYTES: the step's
//     'extract' error (engine/driver/requests/body-prefix.ts); the rest of the body is read and dropped
//   expect.bodyIncludes over MAX_BODY_INCLUDES_BYTES: refused at validation; a response is searched
//     while it streams, keeping only the needle's length of it (engine/driver/requests/body-includes.ts)
//   an extract pattern over MAX_EXTRACT_PATTERN_CHARS, or one that could backtrack: refused at
//     validation (contract/regex-shape.ts); the driver runs it in V8's linear-time engine

const MiB = 1024 * 1024;

/** A request as built: request line and headers (latin1) plus body (UTF-8), in bytes. */
export const MAX_REQUEST_BYTES = 4 * MiB;
/** The body a flow step keeps to extract from (json, regex), in bytes. */
export const MAX_EXTRACT_BODY_BYTES = 1 * MiB;
/** An expect.bodyIncludes needle, in UTF-8 bytes: every request slot keeps up to this much of its response. */
export const MAX_BODY_INCLUDES_BYTES = 4 * 1024;
/** An extract's regular expression, in characters: the linear-time engine's cost is body x pattern. */
export const MAX_EXTRACT_PATTERN_CHARS = 512;

/** A byte count as the messages say it: "4 MiB", "1.5 KiB", "312 bytes". */
export function sizeText(bytes: number): string {
  if (bytes >= MiB) return `${+(bytes / MiB).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

/** A size over `bound` as a message says it: in bytes where rounding would show it equal to the bound. */
export function overText(bytes: number, bound: number): string {
  return sizeText(bytes) === sizeText(bound) ? `${bytes} bytes` : sizeText(bytes);
}
