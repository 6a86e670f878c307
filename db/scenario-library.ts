import type Database from 'better-sqlite3';
import { LoadscopeError } from '../contract/errors.js';
import type { KeptFileRef } from '../contract/kept-files.js';
import { KeptFileStore } from './kept-file-store.js';
import { num, rows, str, type Row } from './sql-read.js';
import type { StoreWrite } from './store-write.js';

// The user's scenarios: a name, and every version ever saved under it (append-only). A version is its
// text and the data files it keeps (names and contents' hashes, migration 024: the contents are in
// kept-file-store.ts), both fixed once saved. The store only keeps them; checking that the text is a
// valid scenario whose name is the entry's, and that its files are data, is the engine's job
// (engine/library/), so nothing here knows the scenario format.

export interface LibraryVersionRef {
  id: number;
  name: string;
  version: number;
  versionId: number;
}

export interface LibraryEntry extends LibraryVersionRef {
  text: string;
  createdAt: string;
  updatedAt: string;
  /** runs that refer to any version of it */
  runs: number;
}

export interface LibraryVersion {
  versionId: number;
  version: number;
  savedAt: string;
  runs: number;
}

const ENTRY_SQL = `
  SELECT s.id, s.name, s.created_at, s.updated_at, v.id AS version_id, v.version, v.text,
    (SELECT count(*) FROM runs r JOIN library_versions lv ON lv.id = r.library_version_id WHERE lv.scenario_id = s.id) AS runs
  FROM library_scenarios s
  JOIN library_versions v ON v.scenario_id = s.id AND v.version = (SELECT max(version) FROM library_versions WHERE scenario_id = s.id)`;

function entryFromRow(r: Row): LibraryEntry {
  const where = 'library scenario';
  return {
    id: num(r, 'id', where),
    name: str(r, 'name', where),
    version: num(r, 'version', where),
    versionId: num(r, 'version_id', where),
    text: str(r, 'text', where),
    createdAt: str(r, 'created_at', where),
    updatedAt: str(r, 'updated_at', where),
    runs: num(r, 'runs', where),
  };
}

const fileKey = (files: readonly KeptFileRef[]) => JSON.stringify([...files].map((f) => [f.name, f.hash]).sort());
const sameFiles = (a: readonly KeptFileRef[], b: readonly KeptFileRef[]) => fileKey(a) === fileKey(b);

export class ScenarioLibrary {
  private readonly stmt;
  /** the contents of the data files its versions keep (and uploads not saved yet) */
  readonly keptFiles: KeptFileStore;

  constructor(
    private readonly db: Database.Database,
    /** the store's write guard: every write of the library goes through it */
    private readonly write: StoreWrite,
  ) {
    this.keptFiles = new KeptFileStore(db, write);
    this.stmt = {
      list: db.prepare(`${ENTRY_SQL} ORDER BY s.name`),
      byName: db.prepare(`${ENTRY_SQL} WHERE s.name = ?`),
      byId: db.prepare(`${ENTRY_SQL} WHERE s.id = ?`),
      idByName: db.prepare('SELECT id FROM library_scenarios WHERE name = ?').pluck(),
      insertScenario: db.prepare('INSERT INTO library_scenarios (name, created_at, updated_at) VALUES (?, ?, ?)'),
      touch: db.prepare('UPDATE library_scenarios SET name = ?, updated_at = ? WHERE id = ?'),
      insertVersion: db.prepare('INSERT INTO library_versions (scenario_id, version, text, saved_at) VALUES (?, ?, ?, ?)'),
      versions: db.prepare(
        `SELECT v.id, v.version, v.saved_at, (SELECT count(*) FROM runs r WHERE r.library_version_id = v.id) AS runs
         FROM library_versions v WHERE v.scenario_id = ? ORDER BY v.version`,
      ),
      version: db.prepare(
        `SELECT s.id, s.name, v.id AS version_id, v.version, v.text FROM library_versions v
         JOIN library_scenarios s ON s.id = v.scenario_id WHERE v.id = ?`,
      ),
      delete: db.prepare('DELETE FROM library_scenarios WHERE id = ?'),
      insertFile: db.prepare('INSERT INTO library_version_files (version_id, name, hash) VALUES (?, ?, ?)'),
      files: db.prepare('SELECT name, hash FROM library_version_files WHERE version_id = ? ORDER BY name'),
      hashes: db.prepare('SELECT DISTINCT f.hash FROM library_version_files f JOIN library_versions v ON v.id = f.version_id WHERE v.scenario_id = ?').pluck(),
    };
  }

  list(): LibraryEntry[] {
    return rows(this.stmt.list.all(), 'library').map(entryFromRow);
  }

  find(name: string): LibraryEntry | undefined {
    const found = this.stmt.byName.get(name);
    return found === undefined ? undefined : entryFromRow(rows([found], 'library')[0]!);
  }

  get(id: number): LibraryEntry {
    const found = this.stmt.byId.get(id);
    if (found === undefined) throw new LoadscopeError('LS_ERR_SCENARIO_NOT_FOUND', `no scenario ${id} in the library`);
    return entryFromRow(rows([found], 'library')[0]!);
  }

  /**
   * A new scenario (no id) or a new version of one (its name may change: a rename). `files`: the
   * data files the version keeps, each content already stored (kept-file-store.ts); absent, those of
   * the version before. An unchanged text, name and files add no version. A name another library
   * scenario has is refused.
   */
  save(input: { id?: number; name: string; text: string; files?: readonly KeptFileRef[] }): LibraryVersionRef {
    return this.write(this.db.transaction((): LibraryVersionRef => {
      const now = new Date().toISOString();
      const found: unknown = this.stmt.idByName.get(input.name);
      const holder = found === undefined ? null : Number(found);
      if (holder !== null && holder !== input.id) {
        throw new LoadscopeError('LS_ERR_SCENARIO_CONFLICT', `the library already has a scenario named '${input.name}'; choose another name`);
      }
      const keep = (versionId: number, files: readonly KeptFileRef[]) => {
        for (const f of files) this.stmt.insertFile.run(versionId, f.name, f.hash);
      };
      if (input.id === undefined) {
        const id = Number(this.stmt.insertScenario.run(input.name, now, now).lastInsertRowid);
        const versionId = Number(this.stmt.insertVersion.run(id, 1, input.text, now).lastInsertRowid);
        keep(versionId, input.files ?? []);
        return { id, name: input.name, version: 1, versionId };
      }
      const current = this.get(input.id);
      const before = this.files(current.versionId);
      const files = input.files ?? before;
      if (current.text === input.text && current.name === input.name && sameFiles(before, files)) return current;
      const version = current.version + 1;
      const versionId = Number(this.stmt.insertVersion.run(input.id, version, input.text, now).lastInsertRowid);
      keep(versionId, files);
      this.stmt.touch.run(input.name, now, input.id);
      return { id: input.id, name: input.name, version, versionId };
    }));
  }

  /** The data files a version keeps, by name. */
  files(versionId: number): KeptFileRef[] {
    return rows(this.stmt.files.all(versionId), 'library file').map((r) => ({ name: str(r, 'name', 'library file'), hash: str(r, 'hash', 'library file') }));
  }

  /** Every content any version of the scenario keeps (what its deletion may leave unnamed). */
  fileHashes(id: number): string[] {
    return this.stmt.hashes.all(id).filter((h): h is string => typeof h === 'string');
  }

  versions(id: number): LibraryVersion[] {
    this.get(id);
    return rows(this.stmt.versions.all(id), 'library version').map((r) => ({
      versionId: num(r, 'id', 'library version'),
      version: num(r, 'version', 'library version'),
      savedAt: str(r, 'saved_at', 'library version'),
      runs: num(r, 'runs', 'library version'),
    }));
  }

  /** One saved version by its id; undefined once its scenario was deleted. */
  version(versionId: number): (LibraryVersionRef & { text: string }) | undefined {
    const found = this.stmt.version.get(versionId);
    if (found === undefined) return undefined;
    const r = rows([found], 'library version')[0]!;
    const where = 'library version';
    return { id: num(r, 'id', where), name: str(r, 'name', where), version: num(r, 'version', where), versionId: num(r, 'version_id', where), text: str(r, 'text', where) };
  }

  /**
   * Deletes a scenario and its versions. Refused (LS_ERR_SCENARIO_CONFLICT) while runs refer to it
   * unless `force`; those runs keep the text they ran (runs.source_text) and lose only the link.
   */
  delete(id: number, force: boolean): { runs: number } {
    const entry = this.get(id);
    if (entry.runs > 0 && !force) {
      throw new LoadscopeError(
        'LS_ERR_SCENARIO_CONFLICT',
        `${entry.runs} stored run${entry.runs === 1 ? '' : 's'} refer to '${entry.name}'; confirm to delete it anyway (the runs keep their copy of the scenario)`,
      );
    }
    this.write(() => this.stmt.delete.run(id));
    return { runs: entry.runs };
  }
}
