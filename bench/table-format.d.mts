// Types of bench/table-format.mjs for its TypeScript test (bench/table-format.test.ts).
export const n: (x: number, digits?: number) => string;
export const range: (xs: number[], digits?: number, unit?: string) => string;
export const verdict: (ok: boolean) => string;
export const mib: (x: number | null | undefined) => string;
export function target(figure: number | null | undefined, op: '<' | '<=' | '>' | '>=', limit: number, unit?: string): string;
export function markdown(rows: string[][]): string;
