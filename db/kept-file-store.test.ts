import { describe, expect, it } from 'vitest';
import { newRun } from './test-support/factories.js';
import { rawSql, useTempStore } from './test-support/temp-store.js';

// The contents of kept data files (migration 024): stored once each, kept while a library version
// or a stored run names them, and an upload nothing names is dropped when old or when such uploads
// pass their bound, so uploads never saved do not pile up in the database for ever.

const tmp = useTempStore();
const HOUR = 60 * 60 * 1000;
const at = (ms: number) => new Date(Date.now() + ms).toISOString();

describe('kept data file contents', () => {
  it('one content is stored once, read back as it was, and a version keeps its own files', () => {
    const { library } = tmp.store;
    const a = library.keptFiles.put(Buffer.from('id\n1\n'));
    expect(library.keptFiles.put(Buffer.from('id\n1\n'))).toBe(a);
    expect(library.keptFiles.content(a)?.toString()).toBe('id\n1\n');
    expect(library.keptFiles.has('0'.repeat(64))).toBe(false);
    const v1 = library.save({ name: 'mine', text: '{}', files: [{ name: 'ids.csv', hash: a }] });
    const b = library.keptFiles.put(Buffer.from('id\n2\n'));
    const v2 = library.save({ id: v1.id, name: 'mine', text: '{}', files: [{ name: 'ids.csv', hash: b }] });
    expect(v2.version).toBe(2);
    expect(library.files(v1.versionId)).toEqual([{ name: 'ids.csv', hash: a }]);
    expect(library.files(v2.versionId)).toEqual([{ name: 'ids.csv', hash: b }]);
  });

  it('a sweep drops what nothing names once old, keeps what a version or a run names, and holds unnamed uploads under their bound, oldest first', () => {
    const { library } = tmp.store;
    const named = library.keptFiles.put(Buffer.from('named\n'));
    library.save({ name: 'mine', text: '{}', files: [{ name: 'n.csv', hash: named }] });
    const read = library.keptFiles.put(Buffer.from('read by a run\n'));
    tmp.store.createRun(newRun({ source: { text: '{}', set: {}, libraryVersionId: null, files: [{ name: 'r.csv', hash: read }] } }));
    const old = library.keptFiles.put(Buffer.from('an upload never saved\n'));
    const fresh = library.keptFiles.put(Buffer.from('a fresh upload\n'));
    rawSql(tmp.dbPath, 'UPDATE data_blobs SET created_at = ?', at(-48 * HOUR));
    rawSql(tmp.dbPath, 'UPDATE data_blobs SET created_at = ? WHERE hash = ?', at(0), fresh);

    expect(library.keptFiles.sweep(at(-24 * HOUR), 1024)).toBe(1);
    expect([named, read, old, fresh].map((h) => library.keptFiles.has(h))).toEqual([true, true, false, true]);
    // over the bound (0 bytes left to unsaved uploads): the fresh one goes too, the named ones never
    expect(library.keptFiles.sweep(at(-24 * HOUR), 0)).toBe(1);
    expect([named, read, fresh].map((h) => library.keptFiles.has(h))).toEqual([true, true, false]);
  });

  it("dropUnnamed leaves a content another scenario still keeps", () => {
    const { library } = tmp.store;
    const shared = library.keptFiles.put(Buffer.from('shared\n'));
    const a = library.save({ name: 'a', text: '{}', files: [{ name: 's.csv', hash: shared }] });
    library.save({ name: 'b', text: '{}', files: [{ name: 's.csv', hash: shared }] });
    const hashes = library.fileHashes(a.id);
    library.delete(a.id, false);
    library.keptFiles.dropUnnamed(hashes);
    expect(library.keptFiles.has(shared)).toBe(true);
  });
});
