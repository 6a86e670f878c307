import { refuseOversized } from './description-text.js';
import { openApiToScenario } from './openapi.js';
import { postmanToScenario } from './postman.js';

// The UI's "Import API description": the text of a file the person picked, an OpenAPI description or
// a Postman collection (told apart by the collection's schema URL), made into a scenario by the same
// importers as the CLI. Nothing is written to the disk: the scenario names its data file by a plain
// name, as the CLI's file beside it, and the engine keeps the file as an editor upload
// (engine/library/kept-data.ts keepUpload), so the draft keeps it and a save keeps it with the
// library scenario.

export interface DescriptionUpload {
  text: string;
  source: string;
  baseUrl?: string | undefined;
}

/** A collection names its format's schema; an OpenAPI description does not. */
const isPostman = (text: string): boolean => /"schema"\s*:\s*"https?:\/\/schema\.(getpostman|postman)\.com\/json\/collection\//.test(text.slice(0, 64 * 1024));

/** The scenario, its notes and its data files' contents (each named as the scenario's data entry names it). */
export async function importDescriptionUpload(upload: DescriptionUpload): Promise<{ text: string; notes: string[]; files: { name: string; text: string }[] }> {
  const postman = isPostman(upload.text);
  refuseOversized(upload.text, upload.source, postman ? 'a Postman collection' : 'an API description');
  const opts = { baseUrl: upload.baseUrl === undefined || upload.baseUrl.trim() === '' ? undefined : upload.baseUrl.trim() };
  const result = postman ? postmanToScenario(upload.text, upload.source, opts) : await openApiToScenario(upload.text, upload.source, opts);
  return { text: result.text, notes: result.notes, files: result.files ?? [] };
}
