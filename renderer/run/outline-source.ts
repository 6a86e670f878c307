import type { Scenario } from '../../contract/scenario';
import type { Validation } from '../scenarios/useValidation';

// Which scenario the Run view outlines before a run: the one the engine answered for the text and the
// quick setting (its own quick-profile resolution, through `scenarios:validate`), so the sizes shown
// are the sizes that will run, labelled quick only where the engine applied a profile. The renderer
// never applies the quick profile itself.

export type OutlineSource =
  | { state: 'ready'; scenario: Scenario; sizes: 'quick' | 'full'; cells: number }
  /** the engine has not answered for this text and setting yet: no sizes rather than the wrong ones */
  | { state: 'pending' }
  /** the engine refused it with this setting (e.g. a quick profile that breaks the scenario) */
  | { state: 'invalid'; message: string }
  /** the engine could not be asked: the text's own (full) sizes, said as such */
  | { state: 'unresolved'; scenario: Scenario; message: string };

export function outlineSource(parsed: Scenario, preview: Validation): OutlineSource {
  if (preview.state === 'failed') return { state: 'unresolved', scenario: parsed, message: preview.message };
  if (preview.state !== 'done') return { state: 'pending' };
  const { result } = preview;
  if (result.ok) return { state: 'ready', scenario: result.scenario, sizes: result.plan.quick ? 'quick' : 'full', cells: result.cells.length };
  const first = result.issues[0];
  return { state: 'invalid', message: first === undefined ? 'the engine refused it' : `${first.path}: ${first.message}` };
}
