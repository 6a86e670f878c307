import { formatDocPath, getAt, type Segment } from './doc-path';
import type { FormBinding } from './form-fields';

// A phase's traceparent switch (issue 38): each request carries a W3C trace id kept with its row, so
// the run's slowest requests can be looked up in the server's own traces.

export function TraceSwitch({ b, at }: { b: FormBinding; at: readonly Segment[] }) {
  const path = [...at, 'traceparent'];
  const key = formatDocPath(path);
  const on = getAt(b.doc, path) === true;
  const error = b.errors.get(key);
  return (
    <label className={`form-field form-check ${error ? 'has-error' : ''}`} data-path={key} title="each request carries a W3C traceparent header; the run lists its slowest requests with their trace ids">
      <span className="field-label">traceparent</span>
      <span>
        <input type="checkbox" checked={on} data-testid={`field-${key}`} onChange={(e) => b.update(path, e.target.checked ? true : undefined)} /> a trace id per request
      </span>
      {error && <span className="field-error">{error}</span>}
    </label>
  );
}
