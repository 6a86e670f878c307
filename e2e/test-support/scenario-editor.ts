import type { Locator, Page } from 'playwright-core';
import { codeEditorText } from './code-editor.js';

// The scenario editor as its e2e files reach it: a form field by its JSON path, the wait until the
// document validates, and the document as the code view holds it.

export interface ScenarioEditor {
  /** the form's control for a JSON path, e.g. phases[0].requests[0].body */
  field(path: string): Locator;
  /** resolves once the validation line says the document is valid */
  waitValid(): Promise<void>;
  /** the code view's text, parsed */
  docOf<T = Record<string, unknown>>(): Promise<T>;
}

export function scenarioEditor(page: () => Page): ScenarioEditor {
  return {
    field: (path) => page().locator(`[data-testid="field-${path}"]`),
    waitValid: () => page().locator('[data-testid="validation"][data-ok="true"]').waitFor({ timeout: 15_000 }),
    docOf: async <T>() => JSON.parse(await codeEditorText(page())) as T,
  };
}
