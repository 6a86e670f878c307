import pc from 'postman-collection';
import { literalText } from '../../contract/variables.js';
import { dataPlaceholder, type DataColumns } from './data-columns.js';

// Postman's {{variable}} in a request's URL, headers and body, as the scenario's placeholders. Both
// write {{...}}, so nothing is copied across as it is: fixed text is escaped (a literal {{ stays
// literal) and each variable becomes a data column holding the collection's value (a value never
// sits in the scenario: a collection keeps its tokens in variables). Postman's dynamic variables
// become their twins where the scenario has one ({{$guid}} -> {{uuid}}), else one sample value.

const VARIABLE = /\{\{([^{}]+)\}\}/g;
/** Resolving a variable's value that names others stops this deep (a variable naming itself never ends). */
const MAX_RESOLVE_DEPTH = 10;

const TWINS: Record<string, string> = {
  $guid: '{{uuid}}',
  $randomUUID: '{{uuid}}',
  $isoTimestamp: '{{isoTime}}',
  $randomInt: '{{randomInt 0 1000}}',
};

/** How the collection's variables are read, and what reading them found. */
export class PostmanVariables {
  /** variables a request used that the collection does not define */
  readonly undefinedNames = new Set<string>();
  /** dynamic variables without a twin, sent as one sample value */
  readonly sampled = new Set<string>();

  constructor(
    private readonly values: ReadonlyMap<string, string>,
    readonly columns: DataColumns,
  ) {}

  /** `text` with every variable replaced by its value (nested ones too); null when one is not defined. */
  resolve(text: string, depth = 0): string | null {
    let missing = false;
    const out = text.replace(VARIABLE, (whole, inner: string) => {
      const value = this.values.get(inner.trim());
      if (value === undefined || depth >= MAX_RESOLVE_DEPTH) {
        missing = true;
        return whole;
      }
      return this.resolve(value, depth + 1) ?? ((missing = true), whole);
    });
    return missing ? null : out;
  }

  /** The placeholder of one variable: its twin, or its column (the resolved value; '' when not defined). */
  private variable(name: string, encode: (s: string) => string): string {
    const twin = TWINS[name];
    if (twin !== undefined) return twin;
    if (name.startsWith('$')) {
      this.sampled.add(name);
      const sample = pc.Property.replaceSubstitutions(`{{${name}}}`, {});
      const column = this.columns.example(name, encode(sample));
      return column === null ? literalText(encode(sample)) : dataPlaceholder(column);
    }
    const value = this.values.has(name) ? this.resolve(this.values.get(name)!) : null;
    if (value === null) this.undefinedNames.add(name);
    // a variable's value is a credential as often as not: never written in the request
    const column = this.columns.secret(name, encode(value ?? ''));
    return column === null ? '' : dataPlaceholder(column);
  }

  /**
   * A template of `text`: fixed text through `fixed` then escaped, variables as placeholders (their
   * values through `encode`: a form body's values sit URL-encoded in the data file).
   */
  template(text: string, fixed: (s: string) => string = (s) => s, encode: (s: string) => string = (s) => s): string {
    let out = '';
    let at = 0;
    for (const m of text.matchAll(VARIABLE)) {
      out += literalText(fixed(text.slice(at, m.index)));
      out += this.variable(m[1]!.trim(), encode);
      at = m.index + m[0].length;
    }
    return out + literalText(fixed(text.slice(at)));
  }

  /** Whether text holds a variable. */
  static uses(text: string): boolean {
    return new RegExp(VARIABLE.source).test(text);
  }
}
