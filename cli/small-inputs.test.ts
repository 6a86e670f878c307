import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../db/store.js';
import { newRun, requestBatch } from '../db/test-support/factories.js';
import { useTempDir } from '../db/test-support/temp-store.js';
import { quote } from '../engine/export/csv.js';
import { rootPath } from '../engine/paths.js';

// Small hostile inputs at the command line: ids that Number() would read as another id, exports
// onto an existing file, and labels that a spreadsheet would run as formulas.

const cli = (...args: string[]) => spawnSync(process.execPath, [rootPath('bin/loadscope.js'), ...args], { encoding: 'utf8', timeout: 60_000 });
const tmp = useTempDir();
beforeEach(() => {
  const store = openStore(tmp.dbPath);
  const runId = store.createRun(newRun());
  store.addCells(runId, [{ index: 0, label: '+cell', params: {} }]);
  const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: '=HYPERLINK("http://x","y")', architecture: 'single' });
  store.insertRequests(targetId, requestBatch(0, 3));
  store.finishRun(runId, 'completed', null);
  store.close();
});

describe('strict run ids', () => {
  it('refuses 0x1, 1e0, 0b1, " 1", 1.0 and 01 instead of reading them as run 1', () => {
    expect(cli('show', '1', '--db', tmp.dbPath).status).toBe(0);
    for (const id of ['0x1', '1e0', '0b1', ' 1', '1.0', '01', '-1', '99999999999999999999']) {
      const result = cli('show', id, '--db', tmp.dbPath);
      expect(result.status, id).toBe(2);
      expect(result.stderr, id).toContain('is not a run id');
    }
  });
});

describe('export', () => {
  it('refuses to overwrite a file unless --force', () => {
    const out = `${tmp.dir}/run.csv`;
    writeFileSync(out, 'precious');
    const refused = cli('export', '1', '--csv', out, '--db', tmp.dbPath);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('already exists; pass --force to replace it');
    expect(readFileSync(out, 'utf8')).toBe('precious');
    const forced = cli('export', '1', '--csv', out, '--force', '--db', tmp.dbPath);
    expect(forced.status, forced.stderr).toBe(0);
    const csv = readFileSync(out, 'utf8');
    // the formula is text now: a leading ' and the usual CSV quoting
    expect(csv).toContain(`"'=HYPERLINK(""http://x"",""y"")",'+cell,`);
    expect(csv).not.toMatch(/(^|,)=HYPERLINK/m);
  });

  it('neutralises every formula prefix in text cells', () => {
    for (const lead of ['=', '+', '-', '@', '\t', '\r']) expect(quote(`${lead}1+1`)).toMatch(/^"?'/);
    expect(quote('plain')).toBe('plain');
    expect(quote('a,b')).toBe('"a,b"');
  });
});
