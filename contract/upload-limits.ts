import { BUNDLE_MAX_CHARS, KEPT_FILE_MAX_BYTES } from './kept-files.js';

// What a file brought in through a call may weigh (issue 39). Each limit is the importer's own and is
// written once: the engine's importer refuses past it (engine/import-requests/, engine/library/), the
// contract's request schema leaves room above it so a file a little too big gets the importer's
// one-line answer rather than a schema's, and the browser host lets a call that carries a file a body
// as large as that file needs (cli/host/browser-host.ts), every other call keeping its small limit.
// Before, the host refused any body over 4 MiB, so the UI could not import a HAR or a description
// that the CLI took.

/** A HAR's bytes (a file, or the text the UI sends): read whole and parsed once. */
export const MAX_HAR_BYTES = 64 * 1024 * 1024;
/**
 * An API description's bytes (OpenAPI, a Postman collection): read whole and parsed once. The largest
 * published descriptions (GitHub's, Stripe's) are about 10 MB.
 */
export const MAX_DESCRIPTION_BYTES = 32 * 1024 * 1024;

/** A call that carries a file: what the file is called in a refusal, and the importer's limit. */
export interface UploadLimit {
  what: string;
  bytes: number;
}

const UPLOADS: Record<string, UploadLimit> = {
  'requests:import-har': { what: 'a HAR', bytes: MAX_HAR_BYTES },
  'requests:import-description': { what: 'an API description', bytes: MAX_DESCRIPTION_BYTES },
  'library:import': { what: 'a scenario with its data files', bytes: BUNDLE_MAX_CHARS },
  'library:upload-data': { what: 'a data file', bytes: KEPT_FILE_MAX_BYTES },
};

/** The file a call carries and its limit, or undefined for a call that carries none. */
export const uploadLimitOf = (call: string): UploadLimit | undefined => (Object.hasOwn(UPLOADS, call) ? UPLOADS[call] : undefined);

/**
 * A file's text inside a request, at most: twice the file (JSON escapes a quote, a backslash or a line
 * break in two characters; base64 adds a third), so every file the importer takes arrives, and one a
 * little over is refused by the importer itself.
 */
export const uploadRoom = (bytes: number): number => 2 * bytes;

/** A size in MiB as a refusal says it ("64 MiB", "1.5 MiB"). */
export const mib = (bytes: number): string => `${Number((bytes / (1024 * 1024)).toFixed(1))} MiB`;
