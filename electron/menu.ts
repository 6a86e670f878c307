import type { MenuItemConstructorOptions } from 'electron';
import type { EventPayload } from '../contract/api.js';

// The application menu. Its actions are the renderer's to carry out (it knows the selected run and
// scenario), so each one is sent to the page as a 'ui:menu' event; only "Open scenario…" does work
// here first, because the page cannot show a file dialog or read a file.

export type MenuAction = EventPayload<'ui:menu'>;

export interface MenuDeps {
  send(action: MenuAction): void;
  /** Shows the open dialog and reads the file; undefined when the user cancels. */
  pickScenarioFile(): Promise<{ path: string; text: string } | undefined>;
  reportError(err: unknown): void;
  platform: NodeJS.Platform;
}

/** What each menu item does (kept apart from the template so it can be driven without Electron). */
export function menuCommands(deps: MenuDeps) {
  return {
    openScenario: () => {
      deps
        .pickScenarioFile()
        .then((file) => file && deps.send({ action: 'open-scenario', path: file.path, text: file.text }))
        .catch(deps.reportError);
    },
    exportRun: () => deps.send({ action: 'export' }),
    runStart: () => deps.send({ action: 'run-start' }),
    runCancel: () => deps.send({ action: 'run-cancel' }),
  };
}

export function menuTemplate(deps: MenuDeps): MenuItemConstructorOptions[] {
  const commands = menuCommands(deps);
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Open scenario…', accelerator: 'CmdOrCtrl+O', click: commands.openScenario },
      { label: 'Export run…', accelerator: 'CmdOrCtrl+E', click: commands.exportRun },
      { type: 'separator' },
      deps.platform === 'darwin' ? { role: 'close' } : { role: 'quit' },
    ],
  };
  const run: MenuItemConstructorOptions = {
    label: 'Run',
    submenu: [
      { label: 'Start', accelerator: 'CmdOrCtrl+Return', click: commands.runStart },
      { label: 'Cancel', accelerator: 'CmdOrCtrl+.', click: commands.runCancel },
    ],
  };
  return [
    ...(deps.platform === 'darwin' ? [{ role: 'appMenu' } satisfies MenuItemConstructorOptions] : []),
    file,
    { role: 'editMenu' },
    run,
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ];
}
