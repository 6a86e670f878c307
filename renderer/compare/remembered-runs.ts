// The runs last compared, kept while the user visits other views: the sidebar's Compare opens an
// empty #/compare/, and Compare's own view is unmounted while another view is shown. Session storage,
// so a reload of another view keeps them too; memory alone where storage is refused.

const KEY = 'loadscope.compare.runIds';
let inMemory: number[] = [];

export function rememberCompareRuns(runIds: readonly number[]): void {
  inMemory = [...runIds];
  try {
    window.sessionStorage.setItem(KEY, runIds.join(','));
  } catch {
    // storage refused (private mode, quota): memory holds them for this page
  }
}

export function rememberedCompareRuns(): number[] {
  let stored: string | null = null;
  try {
    stored = window.sessionStorage.getItem(KEY);
  } catch {
    stored = null;
  }
  if (stored === null) return inMemory;
  return stored.split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
}
