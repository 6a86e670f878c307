import { useEffect, useState } from 'react';
import { DEFAULT_SLOWEST, type SlowestGroup } from '../../contract/slowest';
import { useApi } from '../ui/ApiContext';
import { errorMessage, formatMs } from '../ui/format';
import { Panel } from '../ui/widgets';

// A stored run's slowest requests per server run and phase, with the trace id each was sent with
// (issue 38; the same call as `loadscope show --slowest`), so the server's own trace can be found.
// Shown only when some phase sent traceparent: without trace ids the scatter already shows the tail.

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => void navigator.clipboard.writeText(text).then(() => setCopied(true), () => setCopied(false));
  return (
    <button type="button" className="btn-link small" onClick={copy} title="copy the trace id" data-testid="copy-trace-id">
      {copied ? 'copied' : 'copy'}
    </button>
  );
}

export function SlowestTable({ runId }: { runId: number }) {
  const api = useApi();
  const [state, setState] = useState<{ runId: number; groups: SlowestGroup[] | null; error: string | null } | null>(null);
  useEffect(() => {
    let live = true;
    api.invoke('runs:slowest', { runId, limit: DEFAULT_SLOWEST }).then(
      (groups) => live && setState({ runId, groups, error: null }),
      (err: unknown) => live && setState({ runId, groups: null, error: errorMessage(err) }),
    );
    return () => {
      live = false;
    };
  }, [api, runId]);
  if (state === null || state.runId !== runId) return null;
  if (state.error !== null) return <div className="notice">slowest requests: {state.error}</div>;
  const traced = (state.groups ?? []).filter((g) => g.requests.some((r) => r.traceId !== null));
  if (traced.length === 0) return null;
  return (
    <Panel title={<>Slowest requests <span className="muted">with their trace ids</span></>} testId="slowest-requests">
      {traced.map((g) => (
        <div key={`${g.targetId}:${g.phaseIndex}`} className="table-wrap">
          <div className="muted small">
            {g.server} · {g.phase}
            {g.sampled ? ' (of the rows kept: the run was sampled to fit its raw cap)' : ''}
          </div>
          <table className="data compact">
            <thead>
              <tr>
                <th className="left">endpoint</th>
                <th>total</th>
                <th>wait</th>
                <th>processing</th>
                <th>status</th>
                <th className="left">trace id</th>
              </tr>
            </thead>
            <tbody>
              {g.requests.map((r, i) => (
                <tr key={i}>
                  <td className="left">{r.endpoint ?? '–'}</td>
                  <td className="num">{formatMs(r.totalMs)}</td>
                  <td className="num">{formatMs(r.waitMs)}</td>
                  <td className="num">{formatMs(r.processingMs)}</td>
                  <td className={`num ${r.error !== null || r.status >= 400 ? 'bad' : ''}`}>{r.error ?? r.status}</td>
                  <td className="left">
                    {r.traceId === null ? '–' : (
                      <>
                        <code data-testid="trace-id">{r.traceId}</code> <CopyButton text={r.traceId} />
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </Panel>
  );
}
