import { formatDocPath, getAt, type Segment } from './doc-path';
import { Field, type FormBinding } from './form-fields';

// A ramping-users phase's stages as rows (users to reach, over how long), as headers are: each stage
// is a linear ramp from where the one before ended (the phase's start users for the first).

const msWords = (ms: number) => (ms >= 1000 ? `${Number((ms / 1000).toFixed(1))} s` : `${ms} ms`);

/** "users 0 → 20 over 10 s, held 20 s, → 0 over 5 s": the ramp the rows make, read back. */
export function stagesSummary(startUsers: unknown, stages: readonly unknown[]): string {
  let users = typeof startUsers === 'number' ? startUsers : 0;
  const parts: string[] = [];
  for (const s of stages) {
    const { target, durationMs } = (typeof s === 'object' && s !== null ? s : {}) as { target?: unknown; durationMs?: unknown };
    if (typeof target !== 'number' || typeof durationMs !== 'number') return '';
    parts.push(target === users ? `held ${msWords(durationMs)}` : `→ ${target} over ${msWords(durationMs)}`);
    users = target;
  }
  const start = typeof startUsers === 'number' ? startUsers : 0;
  return `users ${start}${parts[0]?.startsWith('→') ? ' ' : ', '}${parts.join(', ')}`;
}

export function StagesField({ b, at }: { b: FormBinding; at: readonly Segment[] }) {
  const path = [...at, 'stages'];
  const key = formatDocPath(path);
  const value = getAt(b.doc, path);
  const stages = Array.isArray(value) ? value : [];
  const error = b.errors.get(key);
  const last = stages[stages.length - 1] as { target?: unknown } | undefined;
  const summary = stagesSummary(getAt(b.doc, [...at, 'startUsers']), stages);
  return (
    <div className={`form-stages form-wide ${error ? 'has-error' : ''}`} data-path={key} data-testid={`stages-${key}`}>
      <span className="field-label">stages</span>
      <span className="field-note">each row ramps the users linearly to its count over its time, from where the row before ended; e.g. 0 → 20 over 10 s, hold 20 s, → 0 over 5 s</span>
      {!Array.isArray(value) && value !== undefined && <span className="field-error">not a list of stages: the rows below replace it</span>}
      {stages.map((_, j) => (
        <div key={j} className="form-stage-row" data-testid="stage-row">
          <Field b={b} path={[...path, j, 'target']} label={`stage ${j + 1}: users`} kind="number" placeholder="20" />
          <Field b={b} path={[...path, j, 'durationMs']} label="over (ms)" kind="number" placeholder="10000" />
          <button type="button" className="btn-link" aria-label={`remove stage ${j + 1}`} disabled={stages.length === 1} title={stages.length === 1 ? 'a ramp needs a stage' : undefined} onClick={() => b.update([...path, j], undefined)}>
            remove
          </button>
        </div>
      ))}
      {summary !== '' && <span className="field-note" data-testid="stages-summary">{summary}</span>}
      {error && <span className="field-error">{error}</span>}
      <button type="button" className="btn-link small" data-testid={`add-stage-${key}`} onClick={() => b.update([...path, stages.length], { target: typeof last?.target === 'number' ? last.target : 10, durationMs: 5000 })}>
        + stage
      </button>
    </div>
  );
}
