import type { ScenarioListItem } from '../../contract/api';
import type { KeptFile, KeptFileRef } from '../../contract/kept-files';
import type { RunScenarioSource } from '../../contract/library';

// What the editor holds, kept by the App so it survives leaving the Scenarios view: the text, the
// text as last saved (or opened), and the library scenario a Save writes a new version of.

export interface Draft {
  text: string;
  /** dirty while text differs from this */
  baseline: string;
  /** the library scenario Save adds a version to; null: Save creates a new one */
  libraryId: number | null;
  /** shown in the editor's header: "new", "copy of built-in x", "library: x v3", "run #12" */
  origin: string;
  /** the library version the text was opened (or saved) as */
  version?: number;
  /** an older library version is shown: Run sends its text (the name runs the latest), Save restores it */
  older?: boolean;
  /** the data files kept with it (uploaded here, or as its library version keeps them); absent: none */
  files?: readonly KeptFile[];
  /** the files as last saved or opened: dirty while they differ */
  baselineFiles?: readonly KeptFile[];
}

const filesKey = (files: readonly KeptFile[] | undefined) => (files ?? []).map((f) => `${f.name}\u0000${f.hash}`).sort().join('\n');

export const isDirty = (d: Draft | null): boolean => d !== null && (d.text !== d.baseline || filesKey(d.files) !== filesKey(d.baselineFiles));

/** What the engine is sent of a draft's kept files: names and contents' hashes. */
export const keptRefs = (d: Draft): KeptFileRef[] => (d.files ?? []).map(({ name, hash }) => ({ name, hash }));

/** A draft of saved (or opened) text and files: not dirty until one of them changes. */
export function withFiles(d: Draft, files: readonly KeptFile[] | undefined): Draft {
  return files === undefined || files.length === 0 ? d : { ...d, files, baselineFiles: files };
}

/** A name no scenario has yet: my-scenario, my-scenario-2, ... */
export function freshName(list: readonly ScenarioListItem[] | null, base = 'my-scenario'): string {
  const taken = new Set((list ?? []).map((s) => s.name));
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

/** New starts from this: one server, one short open-loop phase, a threshold and a quick profile. */
export function templateText(name: string): string {
  return `${JSON.stringify(
    {
      name,
      title: 'My scenario',
      servers: [{ architecture: 'single' }],
      phases: [{ name: 'steady', executor: 'rate', rate: 50, durationMs: 5000, requests: [{ path: '/fib?n=20' }] }],
      thresholds: [{ check: 'errors.rate < 0.01' }],
      quick: { 'phases[0].durationMs': 1000 },
    },
    null,
    2,
  )}\n`;
}

/** A built-in opened for editing is a copy: its name gets a suffix so Save makes a library scenario. */
export function duplicateText(text: string, name: string): string {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return `${JSON.stringify({ ...value, name }, null, 2)}\n`;
  } catch {
    // not JSON: left as it is, the editor says why
  }
  return text;
}

export function draftOf(text: string, origin: string, libraryId: number | null, saved: boolean): Draft {
  return { text, baseline: saved ? text : '', libraryId, origin };
}

/** A stored run's scenario in the editor: linked to its library scenario when that still exists. */
export function runDraft(runId: number, s: RunScenarioSource): Draft {
  const o = s.origin;
  if (o.kind === 'library') {
    return withFiles({ ...draftOf(s.text, `run #${runId}: library ${o.name} v${o.version}${o.latest ? '' : ' (an older version)'}`, o.id, true), version: o.version, older: !o.latest }, s.files);
  }
  // Opened as the run had it: not an unsaved change until edited (Save to library still offers itself).
  return withFiles(draftOf(s.text, `run #${runId}: ${o.kind === 'builtin' ? `built-in ${o.name}` : o.name} (a copy)`, null, true), s.files);
}
