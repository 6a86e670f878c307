import type { TriedBody, TriedStep } from '../../../contract/try-once';

// One tried step opened: what went out (method, URL, headers, body), what came back (status,
// headers, body), its times as a run splits them, the placeholder values it was built with, the
// value it extracted and each check. Secrets arrive masked from the engine; bodies arrive cut, with
// their full size.

const ms = (v: number | null): string | null => (v === null ? null : `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms`);

function Headers({ headers }: { headers: readonly [string, string][] }) {
  if (headers.length === 0) return null;
  return (
    <table className="try-headers">
      <tbody>
        {headers.map(([name, value], i) => (
          <tr key={i}>
            <th>{name}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Body({ body, testId }: { body: TriedBody; testId: string }) {
  return (
    <>
      <div className="muted try-body-size">
        body: {body.bytes.toLocaleString('en-US')} bytes{body.json ? ', JSON' : ''}
        {body.cut ? ` (cut: ${body.text.length.toLocaleString('en-US')} characters shown)` : ''}
      </div>
      <pre className="try-body" data-testid={testId}>
        {body.text}
      </pre>
    </>
  );
}

function Timing({ step }: { step: TriedStep }) {
  const t = step.timing;
  if (t === null) return null;
  const parts: [string, string | null][] = [
    ['connect', t.connectMs === null ? 'reused' : ms(t.connectMs)],
    ['tls', ms(t.handshakeMs)],
    ['before sending', ms(t.beforeSendMs)],
    ['ttfb', ms(t.ttfbMs)],
    ['transfer', ms(t.transferMs)],
    ['total', ms(t.totalMs)],
    ['server wait', ms(t.serverWaitMs)],
    ['processing', ms(t.processingMs)],
  ];
  return (
    <dl className="try-timing" data-testid="try-timing">
      {parts
        .filter((p): p is [string, string] => p[1] !== null)
        .map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}

export function TryStepDetail({ step }: { step: TriedStep }) {
  const req = step.request;
  const res = step.response;
  return (
    <div className="try-detail" data-testid="try-detail">
      {req !== null && (
        <section>
          <h4>
            Request <code>{req.method}</code> <code className="try-url">{req.url}</code>
          </h4>
          <Headers headers={req.headers} />
          {req.body !== null && <Body body={req.body} testId="try-request-body" />}
        </section>
      )}
      {res !== null && (
        <section>
          <h4>
            Response <code data-testid="try-status">{res.status}</code>
          </h4>
          <Headers headers={res.headers} />
          <Body body={res.body} testId="try-response-body" />
        </section>
      )}
      <Timing step={step} />
      {step.placeholders.length > 0 && (
        <div className="try-values" data-testid="try-placeholders">
          <span className="muted">placeholders:</span>{' '}
          {step.placeholders.map((p) => (
            <code key={p.name}>
              {p.name} = {p.value}
            </code>
          ))}
        </div>
      )}
      {step.extracted !== null && (
        <div className="try-values" data-testid="try-extracted">
          <span className="muted">extracted:</span>{' '}
          <code>
            {step.extracted.var} = {step.extracted.value ?? '(nothing)'}
          </code>
        </div>
      )}
      {step.checks.length > 0 && (
        <ul className="try-checks">
          {step.checks.map((c, i) => (
            <li key={i} className={c.ok ? 'ok' : 'bad'} data-testid="try-check" data-ok={String(c.ok)}>
              {c.ok ? '✓' : '✗'} {c.name}: {c.actual} <span className="muted">({c.path})</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
