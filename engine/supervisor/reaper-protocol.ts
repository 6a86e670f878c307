// Messages from reaper.ts (the watchdog of an external command) to the supervisor, over IPC.

export interface ReaperArgs {
  command: string[];
  cwd?: string;
}

export type ReaperMessage =
  | { type: 'spawned'; pid: number }
  | { type: 'spawn-error'; code: string; message: string }
  | { type: 'exited'; code: number | null; signal: NodeJS.Signals | null };

const TYPES: ReadonlySet<unknown> = new Set(['spawned', 'spawn-error', 'exited']);

/** The reaper is our own code, so a light check of the discriminant is enough. */
export function isReaperMessage(message: unknown): message is ReaperMessage {
  return typeof message === 'object' && message !== null && 'type' in message && TYPES.has(message.type);
}
