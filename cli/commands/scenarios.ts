import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ScenarioListItem } from '../../contract/api.js';
import { LoadscopeError } from '../../contract/errors.js';
import type { Engine } from '../../engine/engine.js';
import { MAX_SCENARIO_BYTES } from '../../engine/scenario/limits.js';
import { dbOption, withEngine } from '../options.js';

/** Left-aligned columns (the text here is words, not numbers). */
function table(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string>>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 3)}...` : text);

function printList(items: readonly ScenarioListItem[], json: boolean): void {
  const broken = items.filter((i) => i.error !== undefined);
  if (broken.length > 0) process.exitCode = 1;
  if (json) return void process.stdout.write(JSON.stringify(items, null, 2) + '\n');
  if (items.length === 0) return void process.stdout.write('no scenarios\n');
  const rows = items.map((i) => {
    const source = i.source === 'library' ? `library v${i.version ?? '?'}` : i.source;
    return i.error !== undefined
      ? [i.name, source, 'INVALID (see below)', '', '', '']
      : [i.name, source, clip(i.title, 60), clip(i.servers.join(', '), 50), String(i.phases), String(i.cells)];
  });
  process.stdout.write(table(['NAME', 'SOURCE', 'TITLE', 'SERVERS', 'PHASES', 'CELLS'], rows) + '\n');
  for (const b of broken) process.stderr.write(`\n${b.name} is invalid: ${b.error}\n`);
}

/** A library scenario's id by name; a built-in or unknown name is refused with the reason. */
async function libraryId(engine: Engine, name: string): Promise<number> {
  const found = await engine.handlers['scenarios:get']({ name });
  if (found.id === undefined) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `'${name}' is a built-in scenario (read-only); \`loadscope scenarios export ${name}\` and import a copy to change it`);
  return found.id;
}

const tooBig = (path: string, size: number | null, limit: number) =>
  new LoadscopeError('LS_ERR_SCENARIO_INVALID', `${path} is ${size ?? `more than ${limit}`} bytes; a scenario${limit === MAX_SCENARIO_BYTES ? '' : ' (or a bundle with its data files)'} may have at most ${limit}`);

/**
 * A scenario file's text, never reading more than the limit allows: a regular file is refused by its
 * size before any byte is read; a pipe or device (no size: /dev/zero, a FIFO) by reading at most one
 * byte past the limit.
 */
async function readScenarioFile(path: string, limit = MAX_SCENARIO_BYTES): Promise<string> {
  const cannot = (err: unknown) => new LoadscopeError('LS_ERR_SCENARIO_NOT_FOUND', `cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`);
  const fh = await open(path, 'r').catch((err: unknown) => Promise.reject(cannot(err)));
  try {
    const stat = await fh.stat();
    if (stat.isDirectory()) throw new LoadscopeError('LS_ERR_SCENARIO_NOT_FOUND', `${path} is a directory, not a scenario file`);
    if (stat.isFile() && stat.size > limit) throw tooBig(path, stat.size, limit);
    const buf = Buffer.alloc(limit + 1);
    let n = 0;
    while (n < buf.length) {
      const { bytesRead } = await fh.read(buf, n, buf.length - n, null).catch((err: unknown) => Promise.reject(cannot(err)));
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    if (n > limit) throw tooBig(path, null, limit);
    return buf.toString('utf8', 0, n);
  } finally {
    await fh.close();
  }
}

/**
 * What `scenarios export` writes: a scenario file with relative data files, or a library scenario
 * that keeps some, as a bundle (engine/library/bundle.ts); anything else as its own text.
 */
async function exportText(ref: string, db: string | undefined): Promise<string> {
  const [{ resolveScenarioFile }, { dataFilesBeside }, { writeBundle }] = await Promise.all([import('../../engine/scenario/load.js'), import('../../engine/library/files-beside.js'), import('../../engine/library/bundle.js')]);
  const path = resolveScenarioFile(ref);
  if (path !== undefined) {
    const text = await readScenarioFile(path);
    const files = dataFilesBeside(path, text);
    return files.length === 0 ? text : writeBundle(text, files);
  }
  return withEngine(db, async (engine) => {
    const found = await engine.handlers['scenarios:get']({ name: ref });
    if (found.files === undefined || found.files.length === 0) return found.text;
    return (await engine.handlers['library:bundle']({ text: found.text, files: found.files.map(({ name, hash }) => ({ name, hash })) })).text;
  });
}

/** --db is the parent's option (`loadscope scenarios import x.json --db d` and `scenarios --db d import x.json` alike). */
const dbOf = (scenarios: Command): { db?: string } => {
  const db: unknown = scenarios.opts().db;
  return typeof db === 'string' ? { db } : {};
};

/**
 * `loadscope scenarios`: the built-in scenarios and your library, and the library's verbs. One that
 * does not validate is listed as INVALID with its problems (and exit code 1), not hidden. The
 * subcommands import what they read files with on their call: the listing builds no scenario schema.
 */
export function registerScenarios(program: Command): void {
  const scenarios = program
    .command('scenarios')
    .description('list the built-in scenarios and your library (name, source, title, servers, phases, matrix cells); import, export, rename, delete')
    .option('--json', 'print the list as JSON', false)
    .addOption(dbOption())
    .action(async (opts: { json: boolean; db?: string }) => {
      printList(await withEngine(opts.db, (engine) => engine.handlers['scenarios:list']({})), opts.json);
    });

  scenarios
    .command('import')
    .description('add a scenario file to your library with the data files beside it, or a bundle exported with its data files (checked first: a broken file stores nothing)')
    .argument('<file>', 'a scenario .json file, or a bundle `scenarios export` wrote')
    .action(async (file: string) => {
      const opts = dbOf(scenarios);
      const path = resolve(file);
      const [{ BUNDLE_MAX_CHARS }, { looksLikeBundle }, { dataFilesBeside }] = await Promise.all([import('../../contract/kept-files.js'), import('../../engine/library/bundle.js'), import('../../engine/library/files-beside.js')]);
      const text = await readScenarioFile(path, BUNDLE_MAX_CHARS);
      // a scenario file's relative data files travel with it (a bundle holds its own)
      const files = looksLikeBundle(text) ? [] : dataFilesBeside(path, text).map((f) => ({ name: f.name, base64: f.content.toString('base64') }));
      const saved = await withEngine(opts.db, (engine) => engine.handlers['library:import']({ text, source: path, files }));
      const kept = files.length > 0 ? ` with ${files.length} data file${files.length === 1 ? '' : 's'}` : '';
      process.stdout.write(`imported '${saved.name}'${kept} (library scenario ${saved.id}, version ${saved.version})\n`);
    });

  scenarios
    .command('export')
    .description("write a scenario's JSON (built-in, library, or a file with the data files beside it) to a file, or to stdout; one with data files is written as a bundle that `scenarios import` takes back whole")
    .argument('<name>', 'a built-in or library name, or a scenario .json file')
    .argument('[file]', 'where to write it; absent: stdout')
    .action(async (name: string, file: string | undefined) => {
      const text = await exportText(name, dbOf(scenarios).db);
      if (file === undefined) process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      else writeFileSync(file, text);
    });

  scenarios
    .command('rename')
    .description('rename a library scenario (a new version; runs keep the version they ran)')
    .argument('<name>')
    .argument('<new-name>')
    .action(async (name: string, newName: string) => {
      const opts = dbOf(scenarios);
      const saved = await withEngine(opts.db, async (engine) => engine.handlers['library:rename']({ id: await libraryId(engine, name), name: newName }));
      process.stdout.write(`renamed to '${saved.name}' (version ${saved.version})\n`);
    });

  scenarios
    .command('delete')
    .description('delete a library scenario and its versions (refused while runs refer to it, unless --force; the runs keep their copy)')
    .argument('<name>')
    .option('--force', 'delete even though stored runs refer to it', false)
    .action(async (name: string, opts: { force: boolean }) => {
      const result = await withEngine(dbOf(scenarios).db, async (engine) => engine.handlers['library:delete']({ id: await libraryId(engine, name), force: opts.force }));
      process.stdout.write(`deleted '${name}'${result.runs > 0 ? ` (${result.runs} runs keep their copy)` : ''}\n`);
    });
}
