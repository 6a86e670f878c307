import type { Page } from 'playwright-core';

// The code view's text, read from CodeMirror's own state: the DOM holds only the lines in view (and
// innerText adds line breaks of its own), so it cannot be read back exactly from the page's text.
// CodeMirror keeps its view on the content element (`cmTile.root.view`, what EditorView.findFromDOM
// reads); @codemirror/view is pinned by the lockfile.
const READ = `(() => {
  const content = document.querySelector('.cm-content');
  const view = content && content.cmTile && content.cmTile.root && content.cmTile.root.view;
  if (!view) throw new Error('no CodeMirror view on the page');
  return view.state.doc.toString();
})()`;

export async function codeEditorText(page: Page): Promise<string> {
  return page.evaluate<string>(READ);
}

/** Replaces the whole text, as a person selecting all and typing over it does. */
export async function typeIntoCodeEditor(page: Page, text: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(text);
}

/** Scenarios -> "Duplicate to edit" on a built-in's card, then the code view of the (valid) copy. */
export async function duplicateIntoCodeView(page: Page, builtin: string): Promise<void> {
  await page.getByTestId('nav-scenarios').click();
  const card = page.getByTestId('scenario-list').locator('article', { hasText: builtin });
  await card.getByRole('button', { name: 'Duplicate to edit' }).click();
  await page.locator('[data-testid="validation"][data-ok="true"]').waitFor({ timeout: 15_000 });
  await page.getByRole('radio', { name: 'Code' }).click();
}
