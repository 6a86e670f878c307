import { startEngineProcess, type EngineProcess } from '../engine/host/engine-process.js';
import type { OpenRecording } from '../engine/record/record-session.js';
import { withDesktopRecording } from './desktop-recording.js';
import { engineLaunch, type DesktopHost, type EngineLaunch } from './engine-launch.js';
import { wireIpc, type EventSink, type IpcMainPort } from './ipc-wiring.js';

// The desktop app's engine, started and wired the one way main.ts does it: the launch decided from
// the host's facts, the engine in its own process, the contract over IPC. Electron's objects come in
// through the same seam the IPC tests use (ipcMain, the sender check, the window's webContents), so
// a test can start exactly this without the Electron binary.

export interface DesktopEngineDeps<E> {
  host: DesktopHost;
  ipcMain: IpcMainPort<E>;
  isTrustedSender: (event: E) => boolean;
  sink: () => EventSink | undefined;
  /** opens a recording's browser (main.ts: a window of the app's own); the record calls are answered in this process */
  record?: OpenRecording;
}

export interface DesktopEngine {
  engine: EngineProcess;
  launch: EngineLaunch;
  /** Unwires IPC, then cancels the active run, stops its servers and ends the engine process. */
  close(): Promise<void>;
}

export function startDesktopEngine<E>(deps: DesktopEngineDeps<E>): DesktopEngine {
  const launch = engineLaunch(deps.host);
  console.log(`loadscope: ${launch.describe}`);
  const engine = startEngineProcess(launch);
  const recording = deps.record ? withDesktopRecording(engine, deps.record) : undefined;
  const unwire = wireIpc(deps.ipcMain, recording?.surface ?? engine, deps.isTrustedSender, deps.sink);
  let closing: Promise<void> | undefined;
  return {
    engine,
    launch,
    close: () =>
      (closing ??= (async () => {
        unwire();
        await recording?.close();
        await engine.close();
      })()),
  };
}
