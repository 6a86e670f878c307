import { getAt, type Segment } from './doc-path';
import { Field, SelectField, type FormBinding } from './form-fields';

// A request template's stream (issue 41, contract/stream.ts): none (one request, one response) or
// a protocol, with the fields of its block; SSE's are its end (events, durationMs) and its limits
// (eventTimeoutMs, maxEventBytes); WebSocket's its hold, waits and bounds (its script is written in the
// code view: a list of steps); gRPC's its .proto, its end (messages, durationMs) and its message bound.

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
      {chosen === 'ws' && (
        <>
          <Field b={b} path={[...path, 'durationMs']} label="hold (ms)" kind="number" placeholder="until its script ends" hint="hold the session open, receiving, until this long after its upgrade; under the phase's timeoutMs" />
          <Field b={b} path={[...path, 'replyTimeoutMs']} label="reply within (ms)" kind="number" placeholder="10000" hint="the upgrade, each awaited reply and each pong must come within this: else an idle error" />
          <Field b={b} path={[...path, 'idleTimeoutMs']} label="message within (ms)" kind="number" placeholder="no limit" hint="after the script, each message must come within this of the last: else an idle error" />
          <Field b={b} path={[...path, 'pingEveryMs']} label="ping every (ms)" kind="number" placeholder="no keep-alive" hint="while it holds, a ping this often; its pong must come within the reply limit" />
          <Field b={b} path={[...path, 'maxMessages']} label="messages at most" kind="number" placeholder="1000000" hint="more messages than this in one session is a protocol error" />
          <Field b={b} path={[...path, 'maxMessageBytes']} label="message at most (bytes)" kind="number" placeholder="1048576" hint="a message over this is refused at its frame's header, a protocol error" />
        </>
      )}
      {chosen === 'grpc' && (
        <>
          <Field b={b} path={[...path, 'proto']} label=".proto file" kind="text" placeholder="service.proto" hint="the .proto with the method, beside the scenario's file; the request's path is the method, /package.Service/Method, its body the message as JSON" />
          <Field b={b} path={[...path, 'messages']} label="messages" kind="number" placeholder="until the server ends it" hint="a server-streaming call: end it cleanly after this many messages" />
          <Field b={b} path={[...path, 'durationMs']} label="hold (ms)" kind="number" placeholder="until the server ends it" hint="a server-streaming call: hold it open this long, then cancel it; under the phase's timeoutMs" />
          <Field b={b} path={[...path, 'maxMessageBytes']} label="message at most (bytes)" kind="number" placeholder="4194304" hint="a reply message over this is refused unread (a protocol error)" />
        </>
      )}
    </>
  );
}
