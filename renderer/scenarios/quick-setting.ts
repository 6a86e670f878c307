// The quick toggle as the person sees it, from what they asked and the engine's word on the scenario's
// quick profile (scenarios:validate / scenarios:list answer `quickProfile`; engine/scenario/quick-profile.ts
// decides). The UI never claims quick where the engine would run the scenario full.

/** What the engine said about the scenario's quick profile: its effect in words, null for none, undefined while unknown. */
export type QuickProfileWord = string | null | undefined;

export interface QuickSetting {
  /** the run will be quick: asked, and the scenario has a profile (or the engine has not answered yet) */
  on: boolean;
  /** the toggle can change anything */
  available: boolean;
  /** the toggle's words: what quick shortens, or why it is off */
  label: string;
  title: string;
}

export function quickSetting(asked: boolean, profile: QuickProfileWord): QuickSetting {
  if (profile === null) {
    return {
      on: false,
      available: false,
      label: 'quick: no profile',
      title: 'this scenario has no quick profile (or one that changes nothing), so it always runs full; add one in the scenario editor (Quick profile) to have a shorter run',
    };
  }
  if (profile === undefined) return { on: asked, available: true, label: 'quick', title: "smaller sizes, same shape: the scenario's quick profile" };
  return { on: asked, available: true, label: `quick: ${profile}`, title: `the scenario's quick profile: ${profile} (same shape, smaller sizes)` };
}
