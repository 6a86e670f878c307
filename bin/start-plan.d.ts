export interface StartPlan {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Why the browser host starts instead of the window. */
  note?: string;
}
export function planStart(facts: {
  electron: { binary: string } | { why: string };
  root: string;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  node: string;
  args: string[];
}): StartPlan;
