import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../db/store.js';
import { newRun } from '../db/test-support/factories.js';
import { useTempDir } from '../db/test-support/temp-store.js';
import { rootPath } from '../engine/paths.js';

// `loadscope annotate RUN --name --note` on a real store file; `list` and `show` print what was
// given, a hostile name's control codes escaped by the terminal guard.

const BIN = rootPath('bin/loadscope.js');
const tmp = useTempDir('file');
let runId = 0;
beforeAll(() => {
  const store = openStore(tmp.dbPath);
  runId = store.createRun(newRun());
  store.finishRun(runId, 'completed', null);
  store.close();
});
const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, '--db', tmp.dbPath], { encoding: 'utf8', timeout: 60_000 });

describe('loadscope annotate', () => {
  it('names a run and gives it a note, which list and show print', () => {
    const set = cli(['annotate', String(runId), '--name', 'baseline\u001b]0;pwned\u0007', '--note', 'before the pool change\nsecond line']);
    expect(set.status, set.stderr).toBe(0);
    expect(set.stdout).toContain(`run ${runId} annotated`);
    expect(set.stdout).not.toContain('\u001b');

    const list = cli(['list']);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain('baseline');
    expect(list.stdout).toContain(`note on ${runId}: before the pool change ...`);
    expect(list.stdout).not.toContain('\u001b');

    const show = cli(['show', String(runId)]);
    expect(show.status, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/^Name: baseline/);
    expect(show.stdout).toContain('Note:\n  before the pool change\n  second line');
    expect(show.stdout).not.toContain('\u001b');
    expect(JSON.parse(cli(['show', String(runId), '--json']).stdout)).toMatchObject({ name: 'baseline\u001b]0;pwned\u0007', note: 'before the pool change\nsecond line' });
  });

  it("clears with '', refuses too long a name, nothing to change and an unknown run", () => {
    expect(cli(['annotate', String(runId), '--name', '']).status).toBe(0);
    expect(JSON.parse(cli(['show', String(runId), '--json']).stdout)).toMatchObject({ name: null, note: 'before the pool change\nsecond line' });
    const long = cli(['annotate', String(runId), '--name', 'x'.repeat(201)]);
    expect(long.status).not.toBe(0);
    expect(long.stderr).toContain('at most 200');
    const none = cli(['annotate', String(runId)]);
    expect(none.status).not.toBe(0);
    expect(none.stderr).toContain('nothing to change');
    const missing = cli(['annotate', String(runId + 100), '--note', 'x']);
    expect(missing.stderr).toContain('LS_ERR_RUN_NOT_FOUND');
  });
});
