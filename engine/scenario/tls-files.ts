import { isAbsolute, resolve } from 'node:path';
import type { Scenario, ScenarioIssue } from '../../contract/scenario.js';
import { regularFileRefusal } from '../regular-file.js';
import type { DataBase } from './data-files.js';
import { ScenarioInvalidError } from './errors.js';
import type { PreparedScenario } from './prepare.js';

// An external server's tls.ca, tls.cert and tls.key name files relative to the scenario's file, as
// data files do: made absolute when the run is prepared (a missing, oversized or not regular file is
// a scenario error naming its JSON path), read when the load starts (engine/run/target-tls.ts).

/** A PEM file's bytes: a CA bundle of the system's ~150 roots is ~220 KiB, a key or certificate a few. */
export const TLS_FILE_MAX_BYTES = 1024 * 1024;

const FILE_KEYS = ['ca', 'cert', 'key'] as const;

function resolveServers(scenario: Scenario, base: DataBase, issues: ScenarioIssue[] | null): Scenario {
  const servers = scenario.servers.map((server, i) => {
    if (server.architecture !== 'external' || server.tls === undefined) return server;
    const tls = { ...server.tls };
    for (const key of FILE_KEYS) {
      const file = tls[key];
      if (file === undefined) continue;
      const path = `servers[${i}].tls.${key}`;
      if (!isAbsolute(file) && base === null) {
        issues?.push({ path, message: `'${file}' is relative, and this scenario has no folder to start from (run it from its file, or give an absolute path)` });
        continue;
      }
      const full = base === null ? file : resolve(base, file);
      const refused = regularFileRefusal(full, TLS_FILE_MAX_BYTES, 'a TLS file');
      if (refused !== null) issues?.push({ path, message: `${full} ${refused}` });
      tls[key] = full;
    }
    return { ...server, tls };
  });
  return { ...scenario, servers };
}

/** The prepared scenario with its TLS files' paths absolute; throws ScenarioInvalidError for a missing one. */
export function resolveTlsFiles<P extends PreparedScenario>(prepared: P, base: DataBase, sourceName: string): P {
  const issues: ScenarioIssue[] = [];
  const scenario = resolveServers(prepared.scenario, base, issues);
  // cells carry the same servers (or a matrix's variants of them): their issues would repeat the scenario's
  const cells = prepared.cells.map((cell) => ({ ...cell, scenario: resolveServers(cell.scenario, base, null) }));
  if (issues.length > 0) throw new ScenarioInvalidError(sourceName, issues);
  return { ...prepared, scenario, cells };
}
