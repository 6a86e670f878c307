import { fieldsOf, type Step } from './journey-step.js';

// What a correlation proposal shows of each place it replaces (issue 39: "each shown with a preview
// of what it replaces"): the field as the journey sends it, cut to a few characters either side of
// the placeholder. Taken after the credentials moved out ({{data.<column>}} stands where a password
// or a static token was), so the preview carries no secret; the correlated value itself, where it
// still stands (the proposal not taken), is cut as the proposal's own value is.

/** Characters kept either side of the placeholder. */
const AROUND = 28;

/** A recorded value as a preview shows it: short ones whole, long ones cut (a token's start identifies it). */
export const previewValue = (value: string): string => (value.length <= 12 ? value : `${value.slice(0, 8)}…`);

const sameKey = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((k, i) => k === b[i]);

/** `step`'s field at `key` around `placeholder` (or around `value` where it was not replaced), on one line. */
export function replacedText(step: Step, key: readonly string[], placeholder: string, value: string): string {
  const field = fieldsOf(step).find((f) => sameKey(f.key, key));
  if (field === undefined) return '';
  const text = field.text.template().replace(/[\x00-\x1f\x7f\u2028\u2029]+/g, ' ');
  let at = text.indexOf(placeholder);
  let length = placeholder.length;
  if (at < 0) {
    at = Math.max(0, text.indexOf(value));
    length = value.length;
  }
  const start = Math.max(0, at - AROUND);
  const end = Math.min(text.length, at + length + AROUND);
  const cut = `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
  return value.length > 12 ? cut.split(value).join(previewValue(value)) : cut;
}
