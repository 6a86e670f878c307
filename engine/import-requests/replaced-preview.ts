import { isCredentialField } from '../../contract/secret-names.js';
import { fieldsOf, type Step } from './journey-step.js';

// What a correlation proposal shows of each place it replaces (issue 39: "each shown with a preview
// of what it replaces"): the field as the journey sends it, cut to a few characters either side of
// the placeholder. Taken after the credentials moved out ({{data.<column>}} stands where a password
// or a static token was), so the preview carries no secret; the correlated value itself, where it
// still stands (the proposal not taken), is cut as the proposal's own value is: a long one to its
// first characters (a JWT's start is its header, and identifies it), a short one whole, unless its
// name says credential (a short session id or token): then only its first few.

/** Characters kept either side of the placeholder. */
const AROUND = 28;

/** Up to this many characters a value is short: shown whole unless it is a credential. */
const SHORT = 12;

/** A recorded value under `name` as a preview shows it. */
export function previewValue(value: string, name: string): string {
  if (value.length > SHORT) return `${value.slice(0, 8)}…`;
  return isCredentialField(name) && value.length > 4 ? `${value.slice(0, 4)}…` : value;
}

const sameKey = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((k, i) => k === b[i]);

/** `step`'s field at `key` around `placeholder` (or around `value` where it was not replaced, cut as `shown`), on one line. */
export function replacedText(step: Step, key: readonly string[], placeholder: string, value: string, shown: string): string {
  const field = fieldsOf(step).find((f) => sameKey(f.key, key));
  if (field === undefined) return '';
  // the value masked in the whole field first, so no cut edge can leave a piece of it
  const whole = field.text.template().replace(/[\x00-\x1f\x7f\u2028\u2029]+/g, ' ');
  const text = shown === value ? whole : whole.split(value).join(shown);
  let at = text.indexOf(placeholder);
  let length = placeholder.length;
  if (at < 0) {
    at = Math.max(0, text.indexOf(shown));
    length = shown.length;
  }
  const start = Math.max(0, at - AROUND);
  const end = Math.min(text.length, at + length + AROUND);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}
