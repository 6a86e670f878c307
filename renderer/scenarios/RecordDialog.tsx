import { useCallback, useEffect, useRef, useState } from 'react';
import type { CallResponse } from '../../contract/api';
import type { KeptFile } from '../../contract/kept-files';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';
import { ErrorBox } from '../ui/widgets';
import { choiceOf, CorrelationReview } from './CorrelationReview';
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

type Stopped = CallResponse<'record:stop'>;
type Stage =
  | { kind: 'idle' | 'starting' | 'stopping' }
  | { kind: 'recording'; url: string; notes: string[] }
  | { kind: 'review'; url: string; stopped: Stopped; opening: boolean };

/**
 * "Record in browser" (issue 39): the host opens a browser at the URL (Chromium, or a window of the
 * desktop app), the live count of what it captured shows here, and Stop (or the person closing that
 * browser) makes the journey. Its correlations are then reviewed (CorrelationReview, as the HAR
 * import shows them: accept all or one by one) before the editor opens the journey with the chosen
 * ones. The host does the capturing and the importing; this dialog starts, shows, stops and chooses.
 */
export function RecordDialog({ onRecorded, onClose }: RecordDialogProps) {
  const api = useApi();
  const [url, setUrl] = useState('http://127.0.0.1:');
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const [count, setCount] = useState({ requests: 0, bytes: 0 });
  const [error, setError] = useState<string | null>(null);
  const [ticked, setTicked] = useState<Set<string>>(new Set());
  const recordingAt = useRef<string | null>(null);
  // a stopped capture the host holds for record:correlate until the next start or cancel
  const holding = useRef(false);

  const recorded = useCallback((r: Stopped, url: string) => onRecorded({ text: r.text, notes: r.notes, url, requests: r.requests, files: r.files }), [onRecorded]);

  const stop = useCallback(() => {
    const at = recordingAt.current;
    if (at === null) return;
    recordingAt.current = null;
    setStage({ kind: 'stopping' });
    api.invoke('record:stop', {}).then(
      (r) => {
        holding.current = true;
        // nothing to choose: straight to the editor
        if (r.proposals.length === 0) return recorded(r, at);
        setTicked(new Set(r.proposals.map((p) => p.id)));
        setStage({ kind: 'review', url: at, stopped: r, opening: false });
      },
      (err: unknown) => {
        setError(errorMessage(err));
        setStage({ kind: 'idle' });
      },
    );
  }, [api, recorded]);

  /** Opens the reviewed journey: as Stop made it when every correlation stays, else made again with the chosen ones. */
  const open = (review: Extract<Stage, { kind: 'review' }>) => {
    const correlate = choiceOf(ticked, review.stopped.proposals);
    if (correlate === 'all') return recorded(review.stopped, review.url);
    setError(null);
    setStage({ ...review, opening: true });
    api.invoke('record:correlate', { correlate }).then(
      (r) => recorded(r, review.url),
      (err: unknown) => {
        setError(errorMessage(err));
        setStage({ ...review, opening: false });
      },
    );
  };

  const cancel = useCallback(() => {
    // a recording left open would keep its browser, a held capture its memory: closing the dialog drops both
    if (recordingAt.current !== null || holding.current) void api.invoke('record:cancel', {}).catch(() => undefined);
    recordingAt.current = null;
    holding.current = false;
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
      // gone (the journey opened, or the view left): the browser closed, the held capture dropped
      if (recordingAt.current !== null || holding.current) void api.invoke('record:cancel', {}).catch(() => undefined);
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
        ) : stage.kind === 'review' ? (
          <div className="record-review" data-testid="record-review">
            <div>
              Recorded <strong>{stage.stopped.requests}</strong> request{stage.stopped.requests === 1 ? '' : 's'} at <strong>{stage.url}</strong>. Values the server gave and
              later requests sent back, each extracted and sent as a variable when accepted:
            </div>
            <CorrelationReview proposals={stage.stopped.proposals} ticked={ticked} onTicked={setTicked} />
          </div>
        ) : (
          <div className="muted">Making the scenario from {count.requests} captured requests…</div>
        )}
        <ErrorBox message={error} onDismiss={() => setError(null)} />
        <div className="toolbar">
          <span className="spacer" />
          <button type="button" className="btn" onClick={cancel} data-testid="record-cancel">
            Cancel
          </button>
          {stage.kind === 'review' ? (
            <button type="button" className="btn btn-primary" disabled={stage.opening} onClick={() => open(stage)} data-testid="record-open-journey">
              {stage.opening ? 'Opening…' : 'Open in the editor'}
            </button>
          ) : (
            <button type="button" className="btn btn-primary" disabled={stage.kind !== 'recording'} onClick={stop} data-testid="record-stop">
              Stop
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
