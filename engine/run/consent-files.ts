import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Scenario } from '../../contract/scenario.js';
import type { DataBase } from '../scenario/data-files.js';
import { builtinDir, type Cell } from '../scenario/index.js';

// The files a run reads that are not its scenario's own, for the consent (consent.ts). A scenario
// names files by path (data files, tls.ca / cert / key), and what it reads can leave the machine as
// request paths and bodies: a shared scenario naming ~/.ssh/id_rsa, or a CSV symlink to /etc/shadow,
// must not be read unasked. A file below the scenario's own folder is its own, and one below the
// package's scenarios/ folder ships with Loadscope (built-ins, examples and their assets); anything
// else is listed by its real path (symlinks followed), so the person sees what is read. A scenario
// with no folder (typed in the UI, from the library, a stored text) has no files of its own.

/** Every file the prepared scenario reads, as an absolute path: its data files and its cells' TLS files. */
function filesRead(scenario: Scenario, cells: readonly Cell[], base: DataBase): string[] {
  const files = new Set<string>();
  for (const d of scenario.data ?? []) {
    // a relative path with no folder is refused by the data reader itself
    if (isAbsolute(d.file) || base !== null) files.add(base === null ? d.file : resolve(base, d.file));
  }
  for (const s of [scenario, ...cells.map((c) => c.scenario)]) {
    for (const server of s.servers) {
      if (server.architecture !== 'external' || server.tls === undefined) continue;
      // made absolute by resolveTlsFiles when the run was prepared
      for (const file of [server.tls.ca, server.tls.cert, server.tls.key]) if (file !== undefined) files.add(resolve(file));
    }
  }
  return [...files];
}

/** The path with every symlink followed; as given when it does not exist (then nothing is read). */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function isBelow(file: string, folder: string): boolean {
  const rel = relative(folder, file);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * The real paths of `files` (absolute) outside `base` (every one when there is none) and outside the
 * package's scenarios/, sorted: what a run or an export reads that is not the scenario's own.
 */
export function outsideOwnFolders(files: readonly string[], base: DataBase): string[] {
  const own = [...(base === null ? [] : [base]), builtinDir()].map(realPath);
  const outside = new Set<string>();
  for (const file of files) {
    const real = realPath(file);
    if (!own.some((folder) => isBelow(real, folder))) outside.add(real);
  }
  return [...outside].sort();
}

/** The real paths of the files the run reads outside its scenario's own folders (outsideOwnFolders). */
export function filesOutside(scenario: Scenario, cells: readonly Cell[], base: DataBase): string[] {
  return outsideOwnFolders(filesRead(scenario, cells, base), base);
}
