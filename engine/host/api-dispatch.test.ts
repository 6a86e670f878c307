import { describe, expect, it } from 'vitest';
import { dispatchCall } from './api-dispatch.js';
import { createFakeEngine } from './test-support/api-cases.js';

describe('dispatchCall', () => {
  it('parses the request (filling defaults) and answers with the handler', async () => {
    const engine = createFakeEngine();
    await expect(dispatchCall(engine.handlers, 'runs:start', { scenario: { text: '{}' }, quick: true })).resolves.toEqual({ runId: 7 });
    expect(engine.seen).toEqual([{ call: 'runs:start', request: { scenario: { text: '{}' }, quick: true, set: {} } }]);
  });

  it('refuses an unknown call, including names inherited from Object', async () => {
    const { handlers } = createFakeEngine();
    await expect(dispatchCall(handlers, 'runs:explode', {})).rejects.toMatchObject({ code: 'LS_ERR_UNKNOWN_CALL' });
    await expect(dispatchCall(handlers, 'constructor', {})).rejects.toMatchObject({ code: 'LS_ERR_UNKNOWN_CALL' });
    await expect(dispatchCall(handlers, '__proto__', {})).rejects.toMatchObject({ code: 'LS_ERR_UNKNOWN_CALL' });
  });

  it('refuses a bad request with one "path: reason" line per issue, before the handler runs', async () => {
    const engine = createFakeEngine();
    const err = await dispatchCall(engine.handlers, 'runs:requests', { runId: 0, targetId: 'x', extra: 1 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'LS_ERR_BAD_REQUEST' });
    const lines = String(err instanceof Error ? err.message : '').split('\n');
    expect(lines[0]).toBe('runs:requests: bad request');
    expect(lines.some((l) => l.startsWith('runId: '))).toBe(true);
    expect(lines.some((l) => l.startsWith('targetId: '))).toBe(true);
    expect(lines.some((l) => l.startsWith('(request): '))).toBe(true);
    await expect(dispatchCall(engine.handlers, 'scenarios:list', undefined)).rejects.toMatchObject({ code: 'LS_ERR_BAD_REQUEST' });
    expect(engine.seen).toEqual([]);
  });
});
