import type { EngineHandlers } from '../contract/api.js';

type Calls = keyof EngineHandlers;

/**
 * Handlers whose module is imported on the first call of any of them, so a host that only lists or
 * shows runs (`loadscope list`) never parses the scenario library, the exporters or k6 support. The
 * import starts once; every call after it awaits the same promise.
 */
export function lazyCalls<K extends Calls>(keys: readonly K[], load: () => Promise<Pick<EngineHandlers, K>>): Pick<EngineHandlers, K> {
  let loaded: Promise<Pick<EngineHandlers, K>> | undefined;
  const calls: Partial<Record<K, (request: never) => Promise<unknown>>> = {};
  for (const key of keys) {
    calls[key] = async (request: never) => {
      loaded ??= load();
      const handler = (await loaded)[key] as unknown as (request: never) => Promise<unknown>;
      return handler(request);
    };
  }
  return calls as unknown as Pick<EngineHandlers, K>;
}
