// k6's side of the streams bench's WebSocket row (bench/streams.mjs): VUS users, each opening an
// echo session after the last ended, sending MESSAGES JSON messages one after another and waiting
// for the echo whose id matches before the next, then closing: the same sessions and messages
// loadscope's row sends. Its round trips are timed with Date.now() (k6 scripts have no finer clock,
// so whole milliseconds); handleSummary writes k6's own summary data to SUMMARY.
import { WebSocket } from 'k6/websockets';
import { Counter, Trend } from 'k6/metrics';

const rtt = new Trend('echo_rtt', true);
const echoed = new Counter('echo_replies');
const failed = new Counter('echo_failures');
const MESSAGES = Number(__ENV.MESSAGES);

export const options = {
  scenarios: { echo: { executor: 'constant-vus', vus: Number(__ENV.VUS), duration: `${__ENV.SECONDS}s` } },
  summaryTrendStats: ['p(50)', 'p(99)', 'max', 'count'],
};

export default function () {
  const ws = new WebSocket(__ENV.URL);
  let id = 0;
  let sentAt = 0;
  const next = () => {
    id++;
    sentAt = Date.now();
    ws.send(JSON.stringify({ id, text: 'hello' }));
  };
  ws.onopen = next;
  ws.onmessage = (e) => {
    if (JSON.parse(e.data).id !== id) return;
    rtt.add(Date.now() - sentAt);
    echoed.add(1);
    if (id < MESSAGES) next();
    else ws.close();
  };
  ws.onerror = () => {
    failed.add(1);
    ws.close();
  };
}

export function handleSummary(data) {
  return { [__ENV.SUMMARY]: JSON.stringify(data) };
}
