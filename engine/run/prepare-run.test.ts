import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../test-support/temp-engine.js';
import { packageRoot } from '../paths.js';
import { prepareRun } from './prepare-run.js';

// A built-in runs the same from any folder: its commands name files of the package
// (seed-001's `node scenarios/assets/nginx-4k.mjs`), so they run from the package root, not from
// wherever `loadscope` was started (issue 24: "Cannot find module '<cwd>/scenarios/assets/...'").

const temp = useTempEngine('prepare');

describe('prepareRun', () => {
  it("runs a built-in's commands from the package root, whatever the current folder", () => {
    const cwd = process.cwd();
    process.chdir(temp.dir);
    try {
      const prepared = prepareRun(temp.engine.store, { name: 'seed-001-rates' }, { quick: true, set: {} });
      const commands = prepared.cells.flatMap((c) => c.scenario.servers).flatMap((s) => (s.architecture === 'external' && s.command ? [s] : []));
      expect(commands.length).toBeGreaterThan(0);
      for (const server of commands) {
        expect(server.cwd).toBe(packageRoot());
        const script = server.command!.find((arg) => arg.endsWith('.mjs'));
        expect(script && existsSync(join(server.cwd!, script)), `${script} from ${server.cwd}`).toBe(true);
      }
    } finally {
      process.chdir(cwd);
    }
  });
});
