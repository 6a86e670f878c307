import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rootPath } from '../paths.js';

// The driver's rooms, held by a scan of its sources (issue 37): each rule fails on the next offender.
// - group.ts stays small: slots, dispatch and settling only; what a request is (requests/), how it
//   travels (transport/) and what is measured (measure/) live in their rooms.
// - Only transport/ speaks to the network's libraries: undici, node:http2 and the fast path's
//   connection are imported there alone, so a transport is chosen once per group (transportFor),
//   never by branches elsewhere; the rest of the driver enters the room by its door, transport/index.ts
//   (or tls.ts, the main thread's probe before a run, which must not load the transports).
// - The target is one value passed down (transport/target.ts), never module state: a module-level
//   let/var in the driver is listed below with why it is not the target, or the scan fails.

const DRIVER = rootPath('engine/driver');
const GROUP_MAX_LINES = 210;
/** module-level let/var that are not the target, and why */
const MODULE_STATE: Record<string, string> = {
  'clock.ts': 't0Ms: the run clock origin of this thread, set once at the run start',
  'requests/linear-regexp.ts': 'linear: whether V8 has its linear-time regexp engine, probed once',
};
const NETWORK_LIBS = /^(undici|node:http2|http2|node:http|http|node:https|https)$/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'test-support' ? [] : sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

const files = sources(DRIVER).map((path) => ({ name: relative(DRIVER, path).split('\\').join('/'), text: readFileSync(path, 'utf8') }));

function importsOf(text: string): string[] {
  return [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'/gm)].map((m) => m[1] ?? m[2]!);
}

/** Offenders of the rooms' rules in `sources` (name relative to engine/driver, text). */
export function roomOffences(sources: readonly { name: string; text: string }[]): string[] {
  const out: string[] = [];
  for (const { name, text } of sources) {
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (name === 'group.ts' && lines > GROUP_MAX_LINES) out.push(`group.ts has ${lines} lines (at most ${GROUP_MAX_LINES})`);
    if (!name.startsWith('transport/')) {
      for (const spec of importsOf(text)) {
        if (NETWORK_LIBS.test(spec)) out.push(`${name} imports ${spec} (only transport/ may)`);
        else if (/(^|\/)transport\/(?!(index|tls)\.js$)[^/]+$/.test(spec)) out.push(`${name} imports ${spec} (outside transport/, through transport/index.js)`);
      }
    }
    for (const m of text.matchAll(/^(?:export\s+)?(?:let|var)\s+(\w+)/gm)) if (MODULE_STATE[name] === undefined) out.push(`${name}: module-level ${m[1]} (the target is passed down, transport/target.ts)`);
  }
  return out;
}

describe("the driver's rooms", () => {
  it('the sources as they are: no offence', () => {
    expect(files.some((f) => f.name === 'group.ts')).toBe(true); // the scan found the driver
    expect(roomOffences(files)).toEqual([]);
  });

  it('each next offender is named: a long group.ts, undici or http2 or the fast path imported outside transport/, a module-level target', () => {
    const offenders = [
      { name: 'group.ts', text: 'x\n'.repeat(GROUP_MAX_LINES + 1) },
      { name: 'run.ts', text: "import { Client } from 'undici';\nimport http2 from 'node:http2';\nimport { H1Connection } from './transport/h1.js';\nimport { transportFor } from './transport/index.js';" },
      { name: 'requests/x.ts', text: "export let target = '';\nlet protocol = 'h1';" },
      { name: 'transport/fine.ts', text: "import { Client } from 'undici';" },
    ];
    expect(roomOffences(offenders)).toEqual([
      `group.ts has ${GROUP_MAX_LINES + 1} lines (at most ${GROUP_MAX_LINES})`,
      'run.ts imports undici (only transport/ may)',
      'run.ts imports node:http2 (only transport/ may)',
      'run.ts imports ./transport/h1.js (outside transport/, through transport/index.js)',
      'requests/x.ts: module-level target (the target is passed down, transport/target.ts)',
      'requests/x.ts: module-level protocol (the target is passed down, transport/target.ts)',
    ]);
  });
});
