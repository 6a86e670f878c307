import { formatDocPath, getAt, type Segment } from './doc-path';
import { Field, type FormBinding } from './form-fields';

// A journey: the phase's flow switch, and per step what it extracts into the user's {{vars.<var>}}
// (from a JSON field, a header or a regular expression) and the pause after it.

export function FlowSwitch({ b, at }: { b: FormBinding; at: readonly Segment[] }) {
  const path = [...at, 'flow'];
  const key = formatDocPath(path);
  const on = getAt(b.doc, path) === true;
  const error = b.errors.get(key);
  return (
    <label className={`form-field form-check ${error ? 'has-error' : ''}`} data-path={key} title="each user does the requests in order, as steps; any error starts the user's flow again">
      <span className="field-label">flow (a journey)</span>
      <span>
        <input type="checkbox" checked={on} data-testid={`field-${key}`} onChange={(e) => b.update(path, e.target.checked ? true : undefined)} /> steps in order
      </span>
      {error && <span className="field-error">{error}</span>}
    </label>
  );
}

const SOURCES = { json: 'path', header: 'name', regex: 'pattern' } as const;
type Source = keyof typeof SOURCES;
const LABELS: Record<Source, { label: string; placeholder: string }> = {
  json: { label: 'JSON path', placeholder: 'token or data.items[0].id' },
  header: { label: 'header name', placeholder: 'location' },
  regex: { label: 'pattern (first group)', placeholder: 'id=(\\d+)' },
};
const isSource = (v: unknown): v is Source => typeof v === 'string' && v in SOURCES;

export function ExtractFields({ b, at }: { b: FormBinding; at: readonly Segment[] }) {
  const path = [...at, 'extract'];
  const key = formatDocPath(path);
  const from = getAt(b.doc, [...path, 'from']);
  const variable = getAt(b.doc, [...path, 'var']);
  const pick = (next: string) => {
    if (!isSource(next)) return b.update(path, undefined);
    // a new source keeps the variable's name; its own field starts empty
    b.update(path, { var: typeof variable === 'string' ? variable : 'value', from: next, [SOURCES[next]]: '' });
  };
  const error = b.errors.get(key);
  return (
    <>
      <label className={`form-field ${error ? 'has-error' : ''}`} data-path={`${key}.from`} title="a value from the response into this user's {{vars.<var>}}">
        <span className="field-label">extract from</span>
        <select value={isSource(from) ? from : ''} data-testid={`field-${key}.from`} onChange={(e) => pick(e.target.value)}>
          <option value="">(nothing)</option>
          <option value="json">JSON field</option>
          <option value="header">header</option>
          <option value="regex">regular expression</option>
        </select>
        {error && <span className="field-error">{error}</span>}
      </label>
      {isSource(from) && (
        <>
          <Field b={b} path={[...path, 'var']} label="into variable" placeholder="token" hint="read later as {{vars.<variable>}}" />
          <Field b={b} path={[...path, SOURCES[from]]} label={LABELS[from].label} placeholder={LABELS[from].placeholder} />
          {from === 'header' && <Field b={b} path={[...path, 'pattern']} label="pattern on its value" placeholder="^sid=([^;]*)" hint="optional: the first group's text is the value (a cookie of Set-Cookie)" />}
        </>
      )}
      <Field b={b} path={[...at, 'thinkMs']} label="think after (ms)" kind="number" placeholder="phase's" hint="this user's pause after this step, instead of the phase's think time" />
    </>
  );
}
