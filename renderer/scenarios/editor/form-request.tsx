import { templateName } from '../../../contract/template-name';
import { getAt, type Segment } from './doc-path';
import { Field, SelectField, type FormBinding } from './form-fields';
import { ExtractFields } from './form-flow';
import { HeadersField } from './form-headers';
import { ChecksField } from './form-checks';
import { StreamFields } from './form-stream';

// One request template of a phase: its endpoint name, method, path, headers and body, as a flow's
// step what it extracts and the pause after it, what it expects (its checks: form-checks.tsx), and
// whether it opens a stream (form-stream.tsx).

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

export function RequestEditor({ b, at, index, flow, onRemove }: { b: FormBinding; at: readonly Segment[]; index: number; flow: boolean; onRemove: (() => void) | null }) {
  const request = getAt(b.doc, at);
  const path = getAt(request, ['path']);
  const method = getAt(request, ['method']);
  // the name the results use when none is given (contract/template-name.ts owns it)
  const fallback = templateName({ path: typeof path === 'string' ? path : '', ...(typeof method === 'string' ? { method } : {}) });
  return (
    <div className="form-request" data-testid="form-request">
      <div className="form-request-head small">
        <strong>{flow ? `step ${index + 1}` : `request ${index + 1}`}</strong>
        <span className="spacer" />
        {onRemove && (
          <button type="button" className="btn-link" onClick={onRemove}>
            remove {flow ? 'step' : 'request'}
          </button>
        )}
      </div>
      <div className="form-grid">
        <Field b={b} path={[...at, 'name']} label="name" placeholder={fallback} hint="the endpoint this request counts under in results and thresholds" />
        <SelectField b={b} path={[...at, 'method']} label="method" options={METHODS} fallback="GET" />
        <Field b={b} path={[...at, 'path']} label="path" placeholder="/fib?n=30" wide />
        {!flow && <Field b={b} path={[...at, 'weight']} label="weight" kind="number" placeholder="1" />}
        <StreamFields b={b} at={at} />
        <HeadersField b={b} at={at} />
        <Field b={b} path={[...at, 'body']} label="body" multiline wide placeholder='{"user": "{{data.user}}"}' hint="placeholders like {{vars.token}} or {{uuid}} are filled in per request" />
        {flow && <ExtractFields b={b} at={at} />}
        <ChecksField b={b} at={at} />
      </div>
    </div>
  );
}
