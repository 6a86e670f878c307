import { LoadscopeError } from '../../contract/errors.js';
import { MAX_SCENARIO_BYTES } from '../scenario/limits.js';

// Stated limits of bringing requests in (issue 28), each refused or noted in one line. A HAR of a
// long browsing session is tens of MB; what comes out must still be a scenario (1 MiB of text, 256
// templates a phase), so the rest is left out with a note rather than refused.

/** A HAR's bytes and an API description's: the contract's, which the UI's calls and the browser host share. */
export { MAX_DESCRIPTION_BYTES, MAX_HAR_BYTES } from '../../contract/upload-limits.js';
/** HAR entries looked at. */
export const MAX_HAR_ENTRIES = 100_000;
/** A pasted curl command's characters. */
export const MAX_CURL_CHARS = 256 * 1024;
/** One request's body (UTF-8 bytes); a larger one leaves its request out. */
export const MAX_BODY_BYTES = 256 * 1024;
/** The imported requests together (UTF-8 bytes of their JSON), leaving room below a scenario's limit. */
export const MAX_REQUESTS_BYTES = MAX_SCENARIO_BYTES - 64 * 1024;
/** Objects and arrays inside each other in a description's JSON (schemas nest; a parser recurses). */
export const MAX_DESCRIPTION_NESTING = 256;
/** A body or parameter made from a schema stops this deep (a schema that refers to itself never ends). */
export const MAX_EXAMPLE_DEPTH = 6;
/** Values one body or parameter made from a schema holds at most (a wide schema is cut, with a note). */
export const MAX_EXAMPLE_VALUES = 500;
/** The characters of an endpoint name made from a path (the schema allows 200). */
export const MAX_NAME_CHARS = 120;

export const badImport = (message: string): LoadscopeError => new LoadscopeError('LS_ERR_BAD_REQUEST', message);

/** A user's string shown inside a note or error: quoted, escaped, cut short (it may hold newlines). */
export function shown(text: string, max = 60): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}...` : text);
}

/** A user's name (an operationId, a collection's title) on one line: control characters as spaces. */
export const oneLine = (text: string): string => text.replace(/[\x00-\x1f\x7f\u2028\u2029]+/g, ' ').trim();
