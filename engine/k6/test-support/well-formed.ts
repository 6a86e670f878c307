/** A string as any YAML or UTF-8 reader can hold it: each lone surrogate U+FFFD (String.prototype.toWellFormed, which this build's lib lacks). */
export function wellFormedText(s: string): string {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}
