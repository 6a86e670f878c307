import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineEvent, EngineHandlers, LoadscopeApi, ParsedCallRequest } from '../../../contract/api.js';
import type { Transport } from '../../../contract/client.js';
import { LoadscopeError } from '../../../contract/errors.js';
import { EventBus } from '../../event-bus.js';

// One suite of test cases run against both hosts' transports (the browser host over real HTTP and
// WebSocket; Electron's IPC wiring with the preload's transport), each over a fake engine, so the
// two wires are held to the same behaviour and neither test depends on the real engine.

export interface FakeEngine {
  handlers: EngineHandlers;
  subscribe(listener: (event: EngineEvent) => void): () => void;
  emit(event: EngineEvent): void;
  /** Every request the handlers saw, parsed, by call. */
  seen: Array<{ call: string; request: unknown }>;
}

function notFaked(call: string): never {
  throw new LoadscopeError('LS_ERR_INTERNAL', `${call} is not faked`);
}

export function createFakeEngine(): FakeEngine {
  const bus = new EventBus();
  const seen: FakeEngine['seen'] = [];
  const record = <T>(call: string, request: T): T => {
    seen.push({ call, request });
    return request;
  };
  const handlers: EngineHandlers = {
    'scenarios:list': async (r) => {
      record('scenarios:list', r);
      return [{ name: 'quick-demo', title: 'Quick demo', description: 'a fake', source: 'builtin', servers: ['single'], phases: 1, cells: 1 }];
    },
    'scenarios:get': async (r) => ({ name: record('scenarios:get', r).name, text: '{}' }),
    'scenarios:validate': async () => notFaked('scenarios:validate'),
    'runs:start': async (r: ParsedCallRequest<'runs:start'>) => {
      record('runs:start', r);
      return { runId: 7 };
    },
    'runs:cancel': async (r) => ({ cancelled: record('runs:cancel', r).runId === 7 }),
    'runs:list': async () => notFaked('runs:list'),
    'runs:get': async ({ runId }) => {
      if (runId === 13) throw new Error('the fake store fell over');
      throw new LoadscopeError('LS_ERR_RUN_NOT_FOUND', `run ${runId} not found`);
    },
    'runs:windows': async () => notFaked('runs:windows'),
    'runs:diagnosis': async () => notFaked('runs:diagnosis'),
    'runs:requests': async () => notFaked('runs:requests'),
    'runs:slowest': async () => notFaked('runs:slowest'),
    'runs:compare': async () => notFaked('runs:compare'),
    'runs:delete': async () => notFaked('runs:delete'),
    'runs:annotate': async () => notFaked('runs:annotate'),
    'runs:group': async () => notFaked('runs:group'),
    'baselines:list': async () => notFaked('baselines:list'),
    'baselines:set': async () => notFaked('baselines:set'),
    'baselines:clear': async () => notFaked('baselines:clear'),
    'runs:trend': async () => notFaked('runs:trend'),
    'runs:export': async () => notFaked('runs:export'),
    'requests:add-curl': async () => notFaked('requests:add-curl'),
    'requests:import-har': async () => notFaked('requests:import-har'),
    'requests:import-curl': async () => notFaked('requests:import-curl'),
    'scenarios:try': async () => notFaked('scenarios:try'),
    'requests:import-description': async () => notFaked('requests:import-description'),
    'k6:status': async () => notFaked('k6:status'),
    'runs:import-k6': async () => notFaked('runs:import-k6'),
    'runs:exportCompare': async () => notFaked('runs:exportCompare'),
    'library:save': async (r) => ({ id: 3, name: 'mine', version: record('library:save', r).id === undefined ? 1 : 2 }),
    'library:import': async () => notFaked('library:import'),
    'library:rename': async () => notFaked('library:rename'),
    'library:delete': async (r) => {
      if (!record('library:delete', r).force) throw new LoadscopeError('LS_ERR_SCENARIO_CONFLICT', '1 stored run refers to it');
      return { deleted: true, runs: 1 };
    },
    'library:versions': async () => notFaked('library:versions'),
    'runs:scenario': async () => notFaked('runs:scenario'),
    'library:upload-data': async () => notFaked('library:upload-data'),
    'library:bundle': async () => notFaked('library:bundle'),
    'record:start': async () => notFaked('record:start'),
    'record:stop': async () => notFaked('record:stop'),
    'record:correlate': async () => notFaked('record:correlate'),
    'record:cancel': async () => notFaked('record:cancel'),
  };
  return { handlers, seen, subscribe: (listener) => bus.subscribe(listener), emit: (event) => bus.emit(event) };
}

export interface TransportUnderTest {
  engine: FakeEngine;
  /** The typed API the UI would use over this transport. */
  api: LoadscopeApi;
  /** The raw wire under it, to send requests the typed API would not let through. */
  transport: Transport;
  /** Calls a name the contract does not have, by whatever means the wire allows. */
  callUnknown(): Promise<unknown>;
  /** Resolves once the host side delivers events to the subscriptions made so far. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

const progress = (requests: number): EngineEvent => ({
  event: 'run:progress',
  payload: { runId: 7, elapsedMs: requests, remainingMs: null, requests, fraction: 0.5 },
});
const finished: EngineEvent = { event: 'run:finished', payload: { runId: 7, status: 'completed', reason: null } };

/** The error a promise rejects with; fails when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

export function describeTransportCases(label: string, open: () => Promise<TransportUnderTest>): void {
  describe(`${label}: the contract's transport cases`, () => {
    let t: TransportUnderTest;
    beforeEach(async () => {
      t = await open();
    });
    afterEach(async () => {
      await t.close();
    });

    it('round-trips a call, the request parsed (defaults filled) before the engine sees it', async () => {
      await expect(t.api.invoke('runs:start', { scenario: { name: 'quick-demo' } })).resolves.toEqual({ runId: 7 });
      expect(t.engine.seen).toEqual([{ call: 'runs:start', request: { scenario: { name: 'quick-demo' }, quick: false, set: {} } }]);
      const list = await t.api.invoke('scenarios:list', {});
      expect(list.map((s) => s.name)).toEqual(['quick-demo']);
    });

    it('refuses a bad request with LS_ERR_BAD_REQUEST naming the path, and the engine never sees it', async () => {
      const err = await rejection(t.transport.invoke('runs:start', { scenario: { name: 5 } }));
      expect(err).toBeInstanceOf(LoadscopeError);
      expect(err).toMatchObject({ code: 'LS_ERR_BAD_REQUEST' });
      expect(String(err instanceof Error && err.message)).toMatch(/scenario/);
      const extra = await rejection(t.transport.invoke('runs:cancel', { runId: 7, force: true }));
      expect(extra).toMatchObject({ code: 'LS_ERR_BAD_REQUEST' });
      expect(t.engine.seen).toEqual([]);
    });

    it('refuses an unknown call', async () => {
      const err = await rejection(t.callUnknown());
      expect(err).toBeInstanceOf(Error);
      expect(t.engine.seen).toEqual([]);
    });

    it('delivers events to their listeners, and unsubscribing stops them', async () => {
      const got: number[] = [];
      const finishes: string[] = [];
      const off = t.api.on('run:progress', (p) => got.push(p.requests));
      t.api.on('run:finished', (p) => finishes.push(p.status));
      await t.settle();
      t.engine.emit(progress(1));
      t.engine.emit(finished);
      await vi.waitFor(() => expect(finishes).toHaveLength(1));
      expect(got).toEqual([1]);
      off();
      off();
      t.engine.emit(progress(2));
      t.engine.emit(finished);
      await vi.waitFor(() => expect(finishes).toHaveLength(2));
      expect(got).toEqual([1]);
    });

    it('carries the library calls: save, run again by run id, and a refused delete with its own code', async () => {
      await expect(t.api.invoke('library:save', { text: '{}' })).resolves.toEqual({ id: 3, name: 'mine', version: 1 });
      await expect(t.api.invoke('runs:start', { scenario: { runId: 5 }, quick: true })).resolves.toEqual({ runId: 7 });
      const refused = await rejection(t.api.invoke('library:delete', { id: 3 }));
      expect(refused).toMatchObject({ code: 'LS_ERR_SCENARIO_CONFLICT', message: '1 stored run refers to it' });
      await expect(t.api.invoke('library:delete', { id: 3, force: true })).resolves.toEqual({ deleted: true, runs: 1 });
      expect(t.engine.seen.map((s) => s.request)).toEqual([
        { text: '{}' },
        { scenario: { runId: 5 }, quick: true, set: {} },
        { id: 3, force: false },
        { id: 3, force: true },
      ]);
    });

    it('brings an engine error across with the same code and message', async () => {
      const err = await rejection(t.api.invoke('runs:get', { runId: 99 }));
      expect(err).toBeInstanceOf(LoadscopeError);
      expect(err).toMatchObject({ code: 'LS_ERR_RUN_NOT_FOUND', message: 'run 99 not found' });
      const internal = await rejection(t.api.invoke('runs:get', { runId: 13 }));
      expect(internal).toMatchObject({ code: 'LS_ERR_INTERNAL', message: 'the fake store fell over' });
    });
  });
}
