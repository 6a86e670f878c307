import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CHROMIUM_INSTALL_HINT, isExecutableFile, usualChromiumLocations } from '../../engine/record/find-chromium.js';

// Where the e2e tests get their Chromium. `npm test` must pass on a fresh machine with nothing
// installed by hand, so the lookup goes: an explicit path (LOADSCOPE_CHROMIUM), then the usual
// places a Chromium or Chrome lives, then it obtains one itself where the machine allows it
// (Debian's/Ubuntu's package when running as root with apt-get; otherwise playwright's own download
// into its cache), and where none of that works it fails with one line saying what to install.
// The e2e tests never pass by being skipped: no browser is a failure.

/** The one line on what to install, the same as `loadscope record` says (engine/record/find-chromium.ts). */
export const INSTALL_HINT = CHROMIUM_INSTALL_HINT;

export interface InstallAttempt {
  /** what is being tried, said before it starts (an install takes a minute) */
  what: string;
  run(): boolean;
}

export interface BrowserLookup {
  env: Record<string, string | undefined>;
  locations: readonly string[];
  isExecutable(path: string): boolean;
  /** ways to obtain a browser on this machine, tried in order until one leaves a browser behind */
  installs: readonly InstallAttempt[];
  say(line: string): void;
}

/** One line: why there is no browser and what to install. Thrown by findBrowser. */
export class NoBrowserError extends Error {
  override readonly name = 'NoBrowserError';
  constructor(message: string) {
    super(message);
    // the line is the whole story: no stack under it in the runner's output
    this.stack = `${this.name}: ${message}`;
  }
}

export function findBrowser(lookup: BrowserLookup): string {
  const explicit = lookup.env.LOADSCOPE_CHROMIUM;
  if (explicit !== undefined && explicit !== '') {
    if (lookup.isExecutable(explicit)) return explicit;
    throw new NoBrowserError(`e2e: LOADSCOPE_CHROMIUM=${explicit} is not an executable file; ${INSTALL_HINT}`);
  }
  const found = () => lookup.locations.find((path) => lookup.isExecutable(path));
  const first = found();
  if (first !== undefined) return first;
  if (lookup.env.LOADSCOPE_BROWSER_INSTALL !== 'never') {
    for (const attempt of lookup.installs) {
      lookup.say(`e2e: no Chromium found; ${attempt.what}`);
      if (!attempt.run()) continue;
      const installed = found();
      if (installed !== undefined) return installed;
    }
  }
  throw new NoBrowserError(`e2e: no Chromium found (looked at LOADSCOPE_CHROMIUM and ${lookup.locations.length} usual locations); ${INSTALL_HINT}`);
}

function succeeds(command: string, args: string[], env?: NodeJS.ProcessEnv): boolean {
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env }, timeout: 15 * 60_000 });
  return result.status === 0;
}

/** playwright-core's own command line (its package exports only package.json, so go through that). */
function playwrightCli(): string {
  return join(dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')), 'cli.js');
}

/** What this machine allows: apt as root, then playwright's download (needs its CDN to be reachable). */
export function machineInstalls(): InstallAttempt[] {
  const attempts: InstallAttempt[] = [];
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (process.platform === 'linux' && root && isExecutableFile('/usr/bin/apt-get')) {
    attempts.push({
      what: "installing the distribution's chromium package (apt-get, running as root; about a minute)",
      run: () => {
        const env = { DEBIAN_FRONTEND: 'noninteractive' };
        return succeeds('apt-get', ['update', '-qq'], env) && succeeds('apt-get', ['install', '-y', '-qq', 'chromium'], env);
      },
    });
  }
  attempts.push({
    what: `downloading playwright's Chromium into ${homedir()}/.cache/ms-playwright (needs its download host)`,
    run: () => succeeds(process.execPath, [playwrightCli(), 'install', 'chromium']),
  });
  return attempts;
}

export function findBrowserOnThisMachine(): string {
  return findBrowser({
    env: process.env,
    // the recorder's own list (engine/record/find-chromium.ts): both look in the same places
    locations: usualChromiumLocations(),
    isExecutable: isExecutableFile,
    installs: machineInstalls(),
    say: (line) => process.stderr.write(`${line}\n`),
  });
}
