import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { LoadscopeError } from '../../contract/errors.js';

// Where the k6 binary is: LOADSCOPE_K6, else `k6` on PATH, else where `go install` puts it
// (~/go/bin, $GOPATH/bin). The version Loadscope is tested with is pinned here and in .ci/run.

export const K6_PINNED = 'v1.8.1';
export const K6_INSTALL = `go install go.k6.io/k6@${K6_PINNED}`;
export const K6_MISSING_MESSAGE = `k6 is not installed (not on PATH, nor in ~/go/bin): install it with \`${K6_INSTALL}\` (Go 1.24+, about 10 minutes on 2 cores) or from https://grafana.com/docs/k6/latest/set-up/install-k6/`;

export interface K6Status {
  available: boolean;
  path: string | null;
  version: string | null;
  /** how to install it, when it is missing */
  hint: string | null;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findK6(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.LOADSCOPE_K6) return executable(env.LOADSCOPE_K6) ? env.LOADSCOPE_K6 : null;
  const dirs = [...(env.PATH ?? '').split(delimiter).filter(Boolean), join(env.GOPATH ?? join(homedir(), 'go'), 'bin')];
  const names = process.platform === 'win32' ? ['k6.exe'] : ['k6'];
  for (const dir of dirs) for (const name of names) if (executable(join(dir, name))) return join(dir, name);
  return null;
}

let cached: K6Status | undefined;

/** Is k6 there, and which version (asked once per process). */
export function k6Status(): K6Status {
  if (cached) return cached;
  const path = findK6();
  if (path === null) return (cached = { available: false, path: null, version: null, hint: K6_MISSING_MESSAGE });
  const out = spawnSync(path, ['version'], { encoding: 'utf8', timeout: 15_000 });
  const version = /k6 (v[\d.]+\S*)/.exec(out.stdout ?? '')?.[1] ?? null;
  return (cached = { available: out.status === 0, path, version, hint: out.status === 0 ? null : `${path} does not run (\`k6 version\` failed); ${K6_MISSING_MESSAGE}` });
}

/** The k6 binary, or LS_ERR_K6_MISSING with how to install it. */
export function requireK6(): string {
  const s = k6Status();
  if (!s.available || s.path === null) throw new LoadscopeError('LS_ERR_K6_MISSING', s.hint ?? K6_MISSING_MESSAGE);
  return s.path;
}
