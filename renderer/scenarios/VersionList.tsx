import { useEffect, useState } from 'react';
import type { CallResponse } from '../../contract/api';
import { useApi } from '../ui/ApiContext';
import { errorMessage, formatDate } from '../ui/format';

// A library scenario's saved versions, newest first. Open shows one in the editor; Restore saves it
// as a new version (a version is never changed, so going back is a step forward with the old text).

export type LibraryVersion = CallResponse<'library:versions'>[number];

export interface VersionListProps {
  libraryId: number;
  /** the version the editor shows, if it came from the library */
  shown: number | undefined;
  /** changes when a save may have added a version: the list is read again */
  reloadKey: string;
  onOpen: (v: LibraryVersion, latest: boolean) => void;
  onRestore: (v: LibraryVersion) => void;
}

export function VersionList({ libraryId, shown, reloadKey, onOpen, onRestore }: VersionListProps) {
  const api = useApi();
  const [versions, setVersions] = useState<LibraryVersion[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.invoke('library:versions', { id: libraryId }).then(
      (list) => live && (setVersions([...list].reverse()), setError(null)),
      (err: unknown) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [api, libraryId, reloadKey]);

  if (error !== null) return <div className="versions muted small">Could not list the saved versions: {error}</div>;
  if (versions === null || versions.length === 0) return null;
  const latest = versions[0]!.version;
  return (
    <details className="versions" data-testid="versions" open={versions.length > 1 && shown !== latest ? true : undefined}>
      <summary>
        Saved versions <span className="muted">({versions.length})</span>
      </summary>
      <table>
        <thead>
          <tr>
            <th>version</th>
            <th>saved</th>
            <th>runs</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v.version} data-testid="version" data-version={v.version} className={`${v.version === latest ? 'current' : ''} ${v.version === shown ? 'shown' : ''}`}>
              <td>
                v{v.version}
                {v.version === latest ? ' (latest)' : ''}
              </td>
              <td>{formatDate(v.savedAt)}</td>
              <td>{v.runs}</td>
              <td>
                <button type="button" className="btn btn-small btn-ghost" disabled={v.version === shown} onClick={() => onOpen(v, v.version === latest)}>
                  Open
                </button>{' '}
                {v.version !== latest && (
                  <button type="button" className="btn btn-small" onClick={() => onRestore(v)} title={`save v${v.version}'s text as v${latest + 1}`}>
                    Restore
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
