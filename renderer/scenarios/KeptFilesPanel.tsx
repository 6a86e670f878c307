import { useRef, useState } from 'react';
import { keptBytesText, keptNameProblem, keptSizeProblem, type KeptFile } from '../../contract/kept-files';
import { useApi } from '../ui/ApiContext';
import { toBase64 } from '../ui/file-base64';
import { errorMessage } from '../ui/format';
import { formatDoc } from './editor/doc-path';
import './kept-files.css';

// The data files kept with the scenario in the editor (issue 39): pick one from the disk (the browser
// host and the desktop alike send its content through library:upload-data, where the engine checks
// it and stores it until a save keeps it), see each with its rows and columns, remove one. A library
// scenario has no folder, so its data entries name these files; an upload a data entry does not
// name yet gets one. Nothing here shows a file's content: data files may hold credentials.

/** A data entry name from a file name: users.csv -> users (letters, digits, _ and -), not one already taken. */
function entryName(file: string, taken: ReadonlySet<string>): string {
  const base = file.replace(/\.[^.]*$/, '').replace(/[^\w-]/g, '_').replace(/^[^A-Za-z_]/, '_') || 'data';
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
  return name;
}

/** The scenario text with a data entry reading `kept` when none does yet; undefined when nothing changes (or the text is not JSON). */
function withDataEntry(text: string, kept: KeptFile): string | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
  const list: unknown = (doc as { data?: unknown }).data;
  const entries = Array.isArray(list) ? (list as unknown[]) : [];
  const fileOf = (e: unknown) => (typeof e === 'object' && e !== null ? (e as { file?: unknown }).file : undefined);
  if (entries.some((e) => fileOf(e) === kept.name)) return undefined;
  const taken = new Set(entries.map((e) => (typeof e === 'object' && e !== null ? (e as { name?: unknown }).name : undefined)).filter((n): n is string => typeof n === 'string'));
  const entry = { name: entryName(kept.name, taken), file: kept.name, format: kept.format, order: 'sequential' };
  return formatDoc({ ...doc, data: [...entries, entry] });
}

export interface KeptFilesPanelProps {
  files: readonly KeptFile[];
  text: string;
  /** the draft's new files, and its new text when an upload added a data entry */
  onChange: (files: KeptFile[], text?: string) => void;
}

export function KeptFilesPanel({ files, text, onChange }: KeptFilesPanelProps) {
  const api = useApi();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const done = () => {
    setBusy(false);
    if (input.current) input.current.value = '';
  };
  const upload = (file: File | undefined) => {
    if (file === undefined) return;
    setError(null);
    // the same rules the engine holds, asked before a byte is read (a 100 MB file is never loaded)
    const badName = keptNameProblem(file.name);
    const problem = badName === null ? keptSizeProblem(file.name, file.size) : `'${file.name}' cannot be kept: ${badName}`;
    if (problem !== null) {
      setError(problem);
      return done();
    }
    setBusy(true);
    file
      .arrayBuffer()
      .then((buffer) => api.invoke('library:upload-data', { name: file.name, base64: toBase64(buffer) }))
      .then(
        (kept) => onChange([...files.filter((f) => f.name !== kept.name), kept], withDataEntry(text, kept)),
        (err: unknown) => setError(errorMessage(err)),
      )
      .finally(done);
  };

  return (
    <section className="kept-files" data-testid="kept-files">
      <div className="kept-files-head">
        <strong>Data files kept with this scenario</strong>
        <span className="spacer" />
        <button type="button" className="btn btn-small" disabled={busy} onClick={() => input.current?.click()} data-testid="kept-upload" title="a CSV or JSON-lines file of at most 2 MiB">
          {busy ? 'Uploading…' : 'Upload data file…'}
        </button>
        <input ref={input} type="file" hidden accept=".csv,.jsonl,.ndjson,.txt,text/csv" data-testid="kept-upload-input" onChange={(e) => upload(e.target.files?.[0])} />
      </div>
      {error !== null && (
        <div className="validation bad" data-testid="kept-error">
          {error}
        </div>
      )}
      {files.length === 0 ? (
        <p className="muted small">None. A file uploaded here is saved with the scenario in your library, exported with it and read by its runs; a data entry names it in its file field.</p>
      ) : (
        <table className="kept-files-table">
          <thead>
            <tr>
              <th>file</th>
              <th>size</th>
              <th>rows</th>
              <th>columns</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {files.map((f) => (
              <tr key={f.name} data-testid={`kept-file-${f.name}`}>
                <td>{f.name}</td>
                <td>{keptBytesText(f.bytes)}</td>
                <td data-testid="kept-rows">{f.rows}</td>
                <td className="kept-columns" title={f.columns.join(', ')}>
                  {f.columns.join(', ')}
                </td>
                <td>
                  <button type="button" className="btn btn-small" onClick={() => onChange(files.filter((k) => k.name !== f.name))} data-testid={`kept-remove-${f.name}`}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
