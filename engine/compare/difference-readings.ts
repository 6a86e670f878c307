import type { DifferenceRule } from '../../contract/compare-explanation.js';

// What each move reads as, up and down, and what to try next: the words of explain-difference.ts's
// findings, kept apart from how a move is found. 'no-change' and 'cannot-judge' have no direction.

/** each rule's reading when its part rose (up) or fell (down), and the next step */
export const READING: Record<DifferenceRule, { up: string; down: string; next: string }> = {
  'moved-queueing': { up: 'requests queue inside the server', down: 'less queueing inside the server', next: 'more workers or processes on the server, or less load; processing per request did not change' },
  'moved-slower': { up: 'each request takes the server longer', down: 'each request takes the server less time', next: "look at what changed in the server's work (a query, contention, CPU): the queue follows it" },
  'moved-client-queue': { up: "Loadscope's own queue: too few connections or streams", down: "less time in Loadscope's own queue", next: 'raise maxInFlight, connections or streams: the server is not what waited' },
  'moved-transfer': { up: 'the response takes longer to arrive: bytes', down: 'the response arrives sooner: bytes', next: 'compare the response sizes and the network between the runs' },
  'moved-server-time': { up: "the server's time rose (no Server-Timing: wait and processing cannot be split)", down: "the server's time fell (no Server-Timing: wait and processing cannot be split)", next: 'have the server send Server-Timing (proc) to tell queueing from slower requests' },
  'moved-unsplit': { up: 'no one part carried a third of it', down: 'no one part carried a third of it', next: 'read the parts in the table below: the move is spread over them' },
  'moved-throughput': { up: 'more load was offered', down: 'less load was offered', next: "check the scenarios' users, rate and duration (the differences above)" },
  'moved-errors': { up: 'more requests failed', down: 'fewer requests failed', next: "read the error kinds of this phase (`show --why`)" },
  'no-change': { up: '', down: '', next: 'nothing to chase; repeat both (`run --repeat 3`) to judge smaller moves' },
  'cannot-judge': { up: '', down: '', next: 'run longer phases (at least 3 s) so each side has blocks enough for an interval' },
};

