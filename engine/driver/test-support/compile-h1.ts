import type { Phase } from '../../../contract/scenario.js';
import { compileRequests } from '../requests/compiled-request.js';
import { fastPathSuits, h1RequestOf, type H1Request } from '../transport/h1.js';

// A phase's requests as the fast path sends them, for tests that drive an H1Connection by hand (the
// driver compiles through its transport, once per client group).

/** The prebuilt requests of a phase, or null when the phase needs undici (fastPathSuits). */
export function compileH1(phase: Phase, baseUrl: string, columns: readonly string[] = []): H1Request[] | null {
  if (!fastPathSuits(phase, baseUrl)) return null;
  const host = new URL(baseUrl).host;
  return compileRequests(phase, columns, host).map((r) => h1RequestOf(r, host));
}
