import { dialog, type BrowserWindow } from 'electron';

// The renderer guards unsaved editor changes with `beforeunload`, the same code in both hosts. A
// browser asks the person itself; Electron instead cancels the unload silently and emits
// 'will-prevent-unload', so the shell asks here. Leave: the unload (quit, reload) goes ahead.
export function confirmUnsavedChanges(window: BrowserWindow): void {
  window.webContents.on('will-prevent-unload', (event) => {
    const choice = dialog.showMessageBoxSync(window, {
      type: 'question',
      buttons: ['Leave', 'Stay'],
      defaultId: 1,
      cancelId: 1,
      title: 'Unsaved changes',
      message: 'The scenario editor has unsaved changes.',
      detail: 'Leave and discard them?',
    });
    if (choice === 0) event.preventDefault();
  });
}
