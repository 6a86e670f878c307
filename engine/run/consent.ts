import { LoadscopeError } from '../../contract/errors.js';
import type { RunEngine } from '../../contract/results.js';
import { remoteHostOf } from '../../contract/scenario.js';
import type { Cell } from '../scenario/index.js';

// What a run may do beyond this machine's bundled servers, and what the person agreed to. Three
// things need explicit consent: load outside this machine (--allow-remote / the UI's confirmation
// naming the host), running an external server's `command` (--allow-commands / the UI's
// confirmation showing argv and cwd) and reading files outside the scenario's own folder
// (--allow-files / the UI's confirmation listing them; consent-files.ts). Built-in scenarios ship
// with Loadscope, so the commands their own text runs are trusted; anything else the prepared
// scenario would run (a command added or changed by --set, however the key is spelled:
// `servers[4]={...}`, `servers=[...]`, a matrix cell) needs consent. It is decided on the scenario
// as it will run, never on the text of an override's key.
// The consent given is stored with the run.

export interface ConsentGiven {
  allowRemote: boolean;
  allowCommands: boolean;
  /** files outside the scenario's folder may be read (absent: no) */
  allowFiles?: boolean;
}

/** Stored with the run: what it needed and that it was allowed. */
export interface RunConsent {
  remoteHosts: string[];
  commands: { argv: string[]; cwd: string }[];
  /** the real paths of files read outside the scenario's folder (consent-files.ts) */
  files: string[];
}

/** The identity of a command a server runs: its argv and the cwd as written (unset: the current folder). */
function commandKey(argv: readonly string[], cwd: string | undefined): string {
  return JSON.stringify([argv, cwd ?? null]);
}

/** The commands a (prepared, as it will run) set of cells would start, each by its key. */
export function commandsOf(cells: readonly Cell[]): Set<string> {
  const keys = new Set<string>();
  for (const cell of cells) {
    for (const server of cell.scenario.servers) {
      if (server.architecture === 'external' && server.command) keys.add(commandKey(server.command, server.cwd));
    }
  }
  return keys;
}

/**
 * What the run needs consent for. `trusted` holds the commands a built-in's own text runs (see
 * commandsOf); every other command of the cells as they will run is listed. `files`: what the run
 * reads outside its scenario's folder (consent-files.ts filesOutside).
 */
export function consentNeeded(cells: readonly Cell[], trusted: ReadonlySet<string> = new Set(), files: readonly string[] = []): RunConsent {
  const remote = new Set<string>();
  const commands = new Map<string, { argv: string[]; cwd: string }>();
  for (const cell of cells) {
    for (const server of cell.scenario.servers) {
      if (server.architecture !== 'external') continue;
      for (const url of [server.url, server.readiness?.url]) {
        const host = url === undefined ? null : remoteHostOf(url);
        if (host !== null) remote.add(host);
      }
      if (server.command && !trusted.has(commandKey(server.command, server.cwd))) {
        const entry = { argv: server.command, cwd: server.cwd ?? process.cwd() };
        commands.set(JSON.stringify(entry), entry);
      }
    }
  }
  return { remoteHosts: [...remote].sort(), commands: [...commands.values()], files: [...files] };
}

/**
 * What consenting to a host means. A k6 run sends from a local k6 binary running a script Loadscope
 * writes, and k6 is only ever given addresses on this machine (engine/k6/k6-target.ts), whatever the
 * answer: there the host is a name that must resolve here, never load outside.
 */
function remoteQuestion(hosts: string, engine: RunEngine): string {
  if (engine === 'k6') {
    return `this run has a local k6 binary run a script Loadscope generates, sending load to ${hosts}; k6 is given only addresses on this machine (127.0.0.0/8, ::1), so each must resolve to one, even with consent`;
  }
  return `this scenario sends load outside this machine, to ${hosts}`;
}

/** Throws LS_ERR_NEEDS_CONSENT naming the hosts / argv and cwd the person has to agree to, worded for the engine that sends the load. */
export function checkConsent(needed: RunConsent, given: ConsentGiven, engine: RunEngine = 'native'): void {
  if (needed.remoteHosts.length > 0 && !given.allowRemote) {
    throw new LoadscopeError('LS_ERR_NEEDS_CONSENT', `${remoteQuestion(needed.remoteHosts.join(', '), engine)}; confirm it in the UI or pass --allow-remote`);
  }
  if (needed.commands.length > 0 && !given.allowCommands) {
    const list = needed.commands.map((c) => `${JSON.stringify(c.argv)} in ${c.cwd}`).join('; ');
    throw new LoadscopeError('LS_ERR_NEEDS_CONSENT', `this scenario runs commands on this machine: ${list}; confirm them in the UI or pass --allow-commands`);
  }
  if (needed.files.length > 0 && given.allowFiles !== true) {
    throw new LoadscopeError('LS_ERR_NEEDS_CONSENT', `this scenario reads files outside its own folder: ${needed.files.map((f) => JSON.stringify(f)).join(', ')}; confirm them in the UI or pass --allow-files`);
  }
}
