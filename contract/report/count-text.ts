// The one place a count is put beside its unit, so "1 user" and "2 users" read as English.

/** `countText(1, 'user')` -> "1 user", `countText(2, 'user')` -> "2 users"; irregular plurals passed in. */
export function countText(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
