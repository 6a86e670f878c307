import { useState } from 'react';
import type { TriedStep } from '../../../contract/try-once';
import { ErrorBox, Panel } from '../../ui/widgets';
import { TryStepDetail } from './TryStepDetail';
import type { TryState } from './useTryOnce';
import './try-panel.css';

// The editor's "Try once" panel (issue 39): the steps one user sent, in order, green or red (grey:
// not sent, and why), each opening to its request and response; a failed step opens by itself and
// its "Show in editor" moves the editor to the field the failure points at (a JSON path, as a
// validation problem is picked). Nothing shown here is stored.

type StepState = 'ok' | 'failed' | 'not-sent';

const stateOf = (s: TriedStep): StepState => (s.notSent !== null ? 'not-sent' : s.error === null ? 'ok' : 'failed');
const MARK: Record<StepState, string> = { ok: '✓', failed: '✗', 'not-sent': '–' };

function StepRow({ step, number, onShow }: { step: TriedStep; number: number; onShow: (path: string, message: string) => void }) {
  const state = stateOf(step);
  const [open, setOpen] = useState(state === 'failed');
  const req = step.request;
  const total = step.timing?.totalMs;
  return (
    <li className={`try-step try-${state}`} data-testid="try-step" data-state={state} data-path={step.path}>
      <button type="button" className="try-step-head" aria-expanded={open} disabled={state === 'not-sent'} onClick={() => setOpen(!open)}>
        <span className="try-mark" aria-hidden>
          {MARK[state]}
        </span>
        <span className="try-number">{number}.</span>
        <span className="try-name">
          <span className="muted">{step.phaseName} ·</span> {step.name}
        </span>
        {req !== null && (
          <code className="try-line">
            {req.method} {req.url}
            {step.response !== null ? ` → ${step.response.status}` : ''}
          </code>
        )}
        {total !== undefined && <span className="muted try-total">{total < 10 ? total.toFixed(2) : total.toFixed(1)} ms</span>}
      </button>
      {step.notSent !== null && <div className="muted try-why">not sent: {step.notSent}</div>}
      {step.error !== null && (
        <div className="try-failure" data-testid="try-failure">
          <span className="bad">
            {step.error.kind}: {step.error.message}
          </span>{' '}
          at <code data-testid="try-failure-path">{step.failurePath ?? step.path}</code>{' '}
          <button type="button" className="btn btn-small" data-testid="try-show-in-editor" onClick={() => onShow(step.failurePath ?? step.path, step.error!.message)}>
            Show in editor
          </button>
        </div>
      )}
      {open && state !== 'not-sent' && <TryStepDetail step={step} />}
    </li>
  );
}

export function TryPanel({ state, onClose, onShow }: { state: TryState; onClose: () => void; onShow: (path: string, message: string) => void }) {
  const result = state.phase === 'done' ? state.result : null;
  const count = (state: StepState) => result?.steps.filter((s) => stateOf(s) === state).length ?? 0;
  const failed = count('failed');
  const notSent = count('not-sent');
  return (
    <Panel
      className="try-panel"
      testId="try-panel"
      title={
        <>
          Try once <span className="muted">one user, nothing stored</span>
        </>
      }
      actions={
        <button type="button" className="btn btn-small" onClick={onClose} data-testid="try-close">
          Close
        </button>
      }
    >
      {state.phase === 'trying' && (
        <div className="muted" data-testid="try-trying">
          Trying: starting the target and sending each step once…
        </div>
      )}
      {state.phase === 'failed' && <ErrorBox message={state.message} />}
      {result !== null && (
        <>
          <div className={`try-verdict ${result.passed ? 'ok' : 'bad'}`} data-testid="try-verdict" data-passed={String(result.passed)}>
            {result.passed
              ? `✓ every step passed (${result.steps.length})`
              : `✗ ${[failed > 0 && `${failed} failed`, notSent > 0 && `${notSent} not sent`].filter(Boolean).join(', ')} of ${result.steps.length} step${result.steps.length === 1 ? '' : 's'}`}{' '}
            <span className="muted">
              against {result.server} at {result.url}
            </span>
          </div>
          {result.unreachable !== null && <ErrorBox message={result.unreachable} />}
          {result.notes.map((n, i) => (
            <div key={i} className="muted">
              note: {n}
            </div>
          ))}
          <ol className="try-steps" key={state.phase === 'done' ? state.seq : 0}>
            {result.steps.map((s, i) => (
              <StepRow key={`${s.path}-${i}`} step={s} number={i + 1} onShow={onShow} />
            ))}
          </ol>
        </>
      )}
    </Panel>
  );
}
