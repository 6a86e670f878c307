// Types of bench/issue42-targets.mjs for its TypeScript test (bench/issue42-targets.test.ts): the
// inputs are what the bench's measuring modules return, typed here only as far as the table reads them.
interface Ratio {
  median: number;
  all: number[];
}
export interface Issue42Inputs {
  protocols: { protocols: Record<string, { perCpuS: Record<string, number>; ratios: Record<string, Ratio> }> };
  wholeAt: { users: number; perCpuS: Record<string, number>; ratios: Record<string, Ratio> }[];
  agreement: { oha: boolean; results: { rate: number; allStored: boolean; oha?: Record<string, number>; loadscope: Record<string, number | number[]>; [ratio: string]: unknown }[] };
  startup: { label: string; wallMs: number; wallMinMs: number; wallMaxMs: number; exit: number }[];
  uiLive: { workP95Ms: number; workP50Ms: number }[];
}
export function issue42Rows(inputs: Issue42Inputs): string[][];
