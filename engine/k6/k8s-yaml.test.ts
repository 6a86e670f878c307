import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { yamlStream, type YamlValue } from './k8s-yaml.js';
import { wellFormedText } from './test-support/well-formed.js';

// The manifests' strings are data to every YAML reader: kubectl's go-yaml reads YAML 1.1 (`on` is a
// bool, U+2028 and U+0085 break a line even inside quotes), other tools 1.2. Whatever a string holds
// (a name, a target, a script, a data file's base name), each version reads back exactly that string
// (a lone surrogate, which YAML cannot hold, as U+FFFD), and the text has no character that one
// version reads differently from the other. (Checked once by hand when this was written: go-yaml
// v2, kubectl's reader, and PyYAML read such streams to the same values.)

type Doc = { readonly [key: string]: YamlValue };

/** Reads a stream as one YAML version reads it; a syntax error fails the test. */
function read(text: string, version: '1.1' | '1.2'): unknown[] {
  return parseAllDocuments(text, { version }).map((d) => {
    expect(d.errors.map(String)).toEqual([]);
    return d.toJS() as unknown;
  });
}

/** What a reader can get back: every string well-formed (a lone surrogate is U+FFFD). */
function wellFormed(v: YamlValue): YamlValue {
  if (typeof v === 'string') return wellFormedText(v);
  if (Array.isArray(v)) return (v as readonly YamlValue[]).map(wellFormed);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [wellFormedText(k), wellFormed(x)]));
  return v;
}

/** Only printable ASCII, newlines, and non-ASCII both versions print alike (no C1, U+2028/9, BOM, tab or CR). */
const ONE_READING = /^(?:[\n\x20-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]|[\ud800-\udbff][\udc00-\udfff])*$/;

const FRAGMENTS = ['\n', '\r', '\r\n', '\t', '\u2028', '\u2029', '\u0085', '\u00a0', '\ufeff', '\ud800', '\udc00', '\u0000', '\u001b', '\u007f', '😀', 'é', '"', "'", '\\', '#', ': ', '- ', '---', '...', '|', '>', '&a', '*a', '!!str', '%YAML', '{', '[', ',', '?', '@', '`', '  ', 'on', 'yes', 'no', '~', 'null', '0777', '0x1f', '1:20', '.inf', '2001-12-14', '1e3'];
const hostile = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 3 })), { maxLength: 10 }).map((parts) => parts.join('')),
);

function docsWith(a: string, b: string, c: string): Doc[] {
  return [
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: a, labels: { [b]: c } }, data: { [a]: b, 'script.js': c } },
    { spec: { args: [a, b, '--tag', c], runner: { env: [{ name: b, value: c }], volumes: [] }, n: 3, on: true, empty: {} } },
  ];
}

describe('the manifests YAML', () => {
  it('hostile strings in every place (keys, values, list items, multi-line texts): YAML 1.1 and 1.2 each read back the same strings, and no character reads differently in the two', () => {
    fc.assert(
      fc.property(hostile, hostile, hostile, (a, b, c) => {
        const docs = docsWith(a, b, c);
        const text = yamlStream(docs);
        expect(text).toMatch(ONE_READING);
        const want = docs.map(wellFormed);
        expect(read(text, '1.2')).toEqual(want);
        expect(read(text, '1.1')).toEqual(want);
      }),
      { numRuns: 400, seed: 40 },
    );
  });

  it("YAML 1.1's other readings of plain words (on, yes, 0777, 1:20, ~) and its line breaks (U+2028, U+0085): each stays the string it was", () => {
    const words = ['on', 'yes', 'No', 'y', '0777', '1:20', '~', 'null', '2001-12-14', 'a\u2028b', 'x\u0085y', 'tab\there', 'crlf\r\nline\n', '\ufeffbom'];
    const docs: Doc[] = [{ data: Object.fromEntries(words.map((w, i) => [`k${i}`, w])), [words[0]!]: words[1]!, list: words }];
    const text = yamlStream(docs);
    expect(text).toMatch(ONE_READING);
    expect(read(text, '1.1')).toEqual(docs);
    expect(read(text, '1.2')).toEqual(docs);
  });

  it('a script of many lines (leading spaces, blank lines, trailing newlines): a literal block both versions read back exactly', () => {
    for (const script of ['  indented first\nsecond\n', 'a\n\n\nb', 'x\n\n\n', '\n\nstarts blank\n', 'ünïcödé 😀\nline\n']) {
      const docs: Doc[] = [{ data: { 'script.js': script } }];
      const text = yamlStream(docs);
      expect(text).toContain('script.js: |2');
      expect(read(text, '1.1')).toEqual(docs);
      expect(read(text, '1.2')).toEqual(docs);
    }
  });
});
