import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Scenario, ScenarioIssue } from '../../contract/scenario.js';
import type { DataBase } from './data-files.js';
import { ScenarioInvalidError } from './errors.js';
import type { PreparedScenario } from './prepare.js';

// An external server's tls.ca, tls.cert and tls.key name files relative to the scenario's file, as
// data files do: made absolute when the run is prepared (a missing file is a scenario error naming
// its JSON path), read when the load starts (engine/run/target-tls.ts).

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
      let isFile = false;
      try {
        isFile = statSync(full).isFile();
      } catch {
        // reported below
      }
      if (!isFile) issues?.push({ path, message: `no file ${full}` });
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
