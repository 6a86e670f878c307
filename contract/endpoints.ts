import { phaseEndpoints, type EndpointResult, type PhaseResult } from './results.js';

// Which of a phase's endpoints the views show apart, and an endpoint's figures read as a phase's.
// A phase of one template has one endpoint whose figures are the phase's own, so tables, reports,
// CSVs and Compare split a phase only when it has more than one: the rule lives here only.

/** The endpoints a view shows under a phase: all of them when there are two or more, else none. */
export function shownEndpoints(phase: Pick<PhaseResult, 'endpoints'>): EndpointResult[] {
  const list = phaseEndpoints(phase);
  return list.length > 1 ? list : [];
}

/**
 * An endpoint's figures in its phase's shape (its phase's name, index, executor, clients and times),
 * so whatever reads a phase's figures (contract/engine-figures.ts, Compare's metrics) reads an
 * endpoint's the same way instead of through a copy.
 */
export function endpointAsPhase(phase: PhaseResult, e: EndpointResult): PhaseResult {
  // every figure the endpoint has replaces the phase's (new figures included); the phase keeps its own name and index.
  // An endpoint that opened no stream has none of its phase's: /fib beside a WebSocket endpoint has no rtt.
  const { stream: _phaseStreams, ...phaseOwn } = phase;
  return {
    ...phaseOwn,
    ...e,
    name: phase.name,
    index: phase.index,
    endpoints: [],
  };
}
