import { getAt, type Segment } from './doc-path';
import { Field, SelectField, type FormBinding } from './form-fields';

// A request template's stream (issue 41, contract/stream.ts): none (one request, one response) or
// a protocol, with the fields of its block; SSE's are its end (events, durationMs) and its limits
// (eventTimeoutMs, maxEventBytes). WebSocket and gRPC add theirs where their blocks are built.

const CHOICES = ['none', 'sse', 'ws', 'grpc'] as const;

export function StreamFields({ b, at }: { b: FormBinding; at: readonly Segment[] }) {
  const path = [...at, 'stream'];
  const protocol = getAt(b.doc, [...path, 'protocol']);
  const chosen = typeof protocol === 'string' ? protocol : 'none';
  return (
    <>
      <SelectField b={b} path={[...path, 'protocol']} label="stream" options={CHOICES} fallback={chosen} onSelect={(v) => b.update(path, v === 'none' ? undefined : { protocol: v })} />
      {chosen === 'sse' && (
        <>
          <Field b={b} path={[...path, 'events']} label="events" kind="number" placeholder="until the server ends it" hint="end the stream cleanly after this many events; the server ending it before is a stream error" />
          <Field b={b} path={[...path, 'durationMs']} label="hold (ms)" kind="number" placeholder="until the server ends it" hint="hold the stream open this long, then close it; under the phase's timeoutMs" />
          <Field b={b} path={[...path, 'eventTimeoutMs']} label="event within (ms)" kind="number" placeholder="30000" hint="the first event, and each next one, must come within this: else an idle error" />
          <Field b={b} path={[...path, 'maxEventBytes']} label="event at most (bytes)" kind="number" placeholder="1048576" hint="an event or a line over this is a protocol error" />
        </>
      )}
    </>
  );
}
