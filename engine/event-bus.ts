import type { EngineEvent } from '../contract/api.js';

type Listener = (event: EngineEvent) => void;

/** Fan-out of engine events. A listener that throws is reported once and never breaks a run. */
export class EventBus {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: EngineEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        console.error(`loadscope: an event listener failed on ${event.event}:`, err);
      }
    }
  }
}
