import { useCallback, useEffect, useRef, useState } from 'react';
import type { KeptFile } from '../../contract/kept-files';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';
import { ErrorBox } from '../ui/widgets';
import { startRecording } from './record-start';
import './record.css';

/** What a recording made: the journey's scenario text, what it left out, where it was recorded. */
export interface Recorded {
  text: string;
  notes: string[];
  url: string;
  requests: number;
  /** the credentials the journey moved out, kept as an upload is (the draft keeps them) */
  files: KeptFile[];
}

export interface RecordDialogProps {
  onRecorded: (recorded: Recorded) => void;
  onClose: () => void;
}

type Stage = { kind: 'idle' | 'starting' | 'stopping' } | { kind: 'recording'; url: string; notes: string[] };

/**
 * "Record in browser" (issue 39): the host opens a browser at the URL (Chromium, or a window of the
 * desktop app), the live count of what it captured shows here, and Stop (or the person closing that
 * browser) makes the journey, which the editor then opens. The host does the capturing and the
 * importing; this dialog only starts, shows and stops.
 */
export function RecordDialog({ onRecorded, onClose }: RecordDialogProps) {
  const api = useApi();
  const [url, setUrl] = useState('http://127.0.0.1:');
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const [count, setCount] = useState({ requests: 0, bytes: 0 });
  const [error, setError] = useState<string | null>(null);
  const recordingAt = useRef<string | null>(null);

  const stop = useCallback(() => {
    const at = recordingAt.current;
    if (at === null) return;
    recordingAt.current = null;
    setStage({ kind: 'stopping' });
    api.invoke('record:stop', {}).then(
      (r) => onRecorded({ ...r, url: at }),
      (err: unknown) => {
        setError(errorMessage(err));
        setStage({ kind: 'idle' });
      },
    );
  }, [api, onRecorded]);

  const cancel = useCallback(() => {
    // a recording left open would keep its browser: closing the dialog closes it
    if (recordingAt.current !== null) void api.invoke('record:cancel', {}).catch(() => undefined);
    recordingAt.current = null;
    onClose();
  }, [api, onClose]);

  useEffect(
    () =>
      api.on('record:progress', (p) => {
        setCount({ requests: p.requests, bytes: p.bytes });
        // the window was closed or a bound was met: what was captured becomes the journey
        if (p.state === 'ended') stop();
      }),
    [api, stop],
  );
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') cancel();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [cancel]);
  useEffect(
    () => () => {
      if (recordingAt.current !== null) void api.invoke('record:cancel', {}).catch(() => undefined);
    },
    [api],
  );

  const start = () => {
    setError(null);
    setCount({ requests: 0, bytes: 0 });
    setStage({ kind: 'starting' });
    startRecording(api, url.trim(), (q) => window.confirm(q)).then(
      (r) => {
        recordingAt.current = r.url;
        setStage({ kind: 'recording', url: r.url, notes: r.notes });
      },
      (err: unknown) => {
        setError(errorMessage(err));
        setStage({ kind: 'idle' });
      },
    );
  };

  return (
    <div className="record-backdrop" onClick={cancel}>
      <div className="record-dialog" role="dialog" aria-modal="true" aria-labelledby="record-title" data-testid="record-dialog" onClick={(e) => e.stopPropagation()}>
        <h2 id="record-title">Record in browser</h2>
        <p className="muted small">
          A browser opens at the URL. Click through the journey there, then press Stop here (or close that browser). What it sent to the URL&apos;s server becomes a
          scenario in order; other hosts and static files are left out.
        </p>
        {stage.kind === 'idle' || stage.kind === 'starting' ? (
          <div className="toolbar">
            <input
              className="record-url"
              aria-label="URL to record at"
              data-testid="record-url"
              spellCheck={false}
              value={url}
              autoFocus
              onChange={(e) => setUrl(e.target.value)}
              onKeyDown={(e) => e.key === 'Enter' && stage.kind === 'idle' && url.trim() !== '' && start()}
            />
            <button type="button" className="btn btn-primary" disabled={stage.kind === 'starting' || url.trim() === ''} onClick={start} data-testid="record-start">
              {stage.kind === 'starting' ? 'Opening…' : 'Start'}
            </button>
          </div>
        ) : stage.kind === 'recording' ? (
          <>
            <div>
              Recording at <strong>{stage.url}</strong>:{' '}
              <span className="record-count" data-testid="record-count" data-requests={count.requests}>
                {count.requests} request{count.requests === 1 ? '' : 's'} captured · {(count.bytes / 1024).toFixed(0)} KiB of bodies
              </span>
            </div>
            {stage.notes.length > 0 && (
              <ul className="record-notes muted small">
                {stage.notes.map((n, i) => (
                  <li key={i}>{n}</li>
                ))}
              </ul>
            )}
          </>
        ) : (
          <div className="muted">Making the scenario from {count.requests} captured requests…</div>
        )}
        <ErrorBox message={error} onDismiss={() => setError(null)} />
        <div className="toolbar">
          <span className="spacer" />
          <button type="button" className="btn" onClick={cancel} data-testid="record-cancel">
            Cancel
          </button>
          <button type="button" className="btn btn-primary" disabled={stage.kind !== 'recording'} onClick={stop} data-testid="record-stop">
            Stop
          </button>
        </div>
      </div>
    </div>
  );
}
