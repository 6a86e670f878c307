import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { distPath } from '../paths.js';
import { BUILTIN_INDEX_FILE, listBuiltinsIndexed } from './builtin-index.js';
import { listBuiltinScenarios } from './builtin-list.js';
import { createScenario } from './test-support/factories.js';

// `loadscope scenarios` lists the built-ins from the index the build wrote instead of parsing each.
// An index that is stale (a built-in edited or added since the build), damaged, of another shape,
// not a file or far too big never changes the listing: a built-in is taken from the index only when
// its file's text is exactly the one the entry was made from; any other is listed from its full
// parse, so the listing says what the files say.

let dir: string;
let index: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-builtin-index-'));
  index = join(dir, 'index.json');
  mkdirSync(join(dir, 'scenarios'));
  writeFileSync(join(dir, 'scenarios', 'alpha.json'), JSON.stringify(createScenario({ name: 'alpha', title: 'Alpha' })));
  writeFileSync(join(dir, 'scenarios', 'beta.json'), JSON.stringify(createScenario({ name: 'beta', matrix: { 'phases[0].count': [1, 2, 3] } })));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const scenarios = () => join(dir, 'scenarios');
const text = (name: string) => readFileSync(join(scenarios(), `${name}.json`), 'utf8');
/** An entry no parse would give: seen in the listing only if the index was used. */
const marked = (name: string) => ({ name, title: `from the index: ${name}`, description: '', source: 'builtin', servers: [], phases: 9, cells: 9 });

describe('the built-ins listed from the build index', () => {
  it('an entry whose text is the file\'s: taken from the index, not parsed', async () => {
    writeFileSync(index, JSON.stringify({ alpha: { text: text('alpha'), item: marked('alpha') }, beta: { text: text('beta'), item: marked('beta') } }));
    expect(await listBuiltinsIndexed(scenarios(), index)).toEqual([marked('alpha'), marked('beta')]);
  });

  it('a built-in edited or added since the build: listed from its full parse, the others from the index', async () => {
    writeFileSync(index, JSON.stringify({ alpha: { text: text('alpha'), item: marked('alpha') }, beta: { text: `${text('beta')} `, item: marked('beta') } }));
    writeFileSync(join(scenarios(), 'gamma.json'), JSON.stringify(createScenario({ name: 'gamma' })));
    const full = listBuiltinScenarios(scenarios());
    expect(await listBuiltinsIndexed(scenarios(), index)).toEqual([marked('alpha'), full[1], full[2]]);
  });

  const damaged: Record<string, (file: string) => void> = {
    'no index file': () => undefined,
    'not JSON': (file) => writeFileSync(file, '{"alpha": {"text": '),
    'JSON of another shape (an array)': (file) => writeFileSync(file, JSON.stringify([{ text: text('alpha'), item: marked('alpha') }])),
    'entries that are not objects, items that are null, texts that are numbers': (file) =>
      writeFileSync(file, JSON.stringify({ alpha: 'x', beta: { text: 7, item: marked('beta') }, gamma: { text: 'x', item: null } })),
    'a folder where the file should be': (file) => mkdirSync(file),
    'a file far bigger than an index': (file) => writeFileSync(file, Buffer.alloc(17 * 1024 * 1024, 0x20)),
  };

  it.each(Object.entries(damaged))('%s: every built-in listed from its full parse', async (_name, make) => {
    make(index);
    expect(await listBuiltinsIndexed(scenarios(), index)).toEqual(listBuiltinScenarios(scenarios()));
  });

  it('the package\'s own index, as the build wrote it: the same listing as parsing every built-in', async () => {
    // the build writes it (scripts/build.mjs); the tests run after the build
    expect(existsSync(distPath(BUILTIN_INDEX_FILE))).toBe(true);
    expect(await listBuiltinsIndexed()).toEqual(listBuiltinScenarios());
  });
});
