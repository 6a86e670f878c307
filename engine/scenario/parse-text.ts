import { ScenarioInvalidError } from './errors.js';
import { MAX_NESTING_DEPTH, MAX_SCENARIO_BYTES, nestingOverflow } from './limits.js';

// Scenario files are JSON. JSON.parse's errors on Node 20 often have no position ("Unexpected token
// '}', "<the whole file>" is not valid JSON"), so on failure a small scanner finds where and why.

/** The parsed JSON value of a scenario text; bad JSON throws ScenarioInvalidError with line and column. */
export function parseScenarioText(text: string, sourceName: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes > MAX_SCENARIO_BYTES) {
    throw new ScenarioInvalidError(sourceName, [{ path: '(json)', message: `the text is ${bytes} bytes; a scenario may have at most ${MAX_SCENARIO_BYTES}` }]);
  }
  // Before parsing: the error locator below is recursive, and nothing needs this much nesting.
  const deep = nestingOverflow(body);
  if (deep >= 0) {
    const { line, column } = lineAndColumn(body, deep);
    throw new ScenarioInvalidError(sourceName, [
      { path: '(json)', message: `nested deeper than ${MAX_NESTING_DEPTH} arrays/objects at line ${line}, column ${column}`, line, column },
    ]);
  }
  try {
    return JSON.parse(body) as unknown;
  } catch (err) {
    const found = locateJsonError(body) ?? { offset: body.length, reason: err instanceof Error ? err.message : String(err) };
    const { line, column } = lineAndColumn(body, found.offset);
    throw new ScenarioInvalidError(sourceName, [
      { path: '(json)', message: `invalid JSON at line ${line}, column ${column}: ${found.reason}`, line, column },
    ]);
  }
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

class JsonSyntax extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
  ) {
    super(reason);
  }
}

/** The offset and reason of the first syntax error in `text`, or undefined if it is valid JSON. */
export function locateJsonError(text: string): { offset: number; reason: string } | undefined {
  let i = 0;
  const fail = (reason: string, at = i): never => {
    throw new JsonSyntax(reason, at);
  };
  const here = (): string => (i >= text.length ? 'the end of the text' : JSON.stringify(text[i]));
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = () => {
    const start = i;
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined) fail('unterminated string (a missing closing ")', start);
      else if (c === '"') return void i++;
      else if (c === '\\') {
        const next = text[i + 1] ?? '';
        if ('"\\/bfnrt'.includes(next) && next !== '') i += 2;
        else if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else fail(`bad escape sequence \\${next} in a string`);
      } else if (c < ' ') fail('a control character (such as a line break) inside a string; write it as \\n');
      else i++;
    }
  };
  const number = () => {
    const re = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m || m[0] === '-' || m[0] === '') fail(`bad number at ${here()}`);
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) return void (i += word.length);
    }
    if (c === "'") fail("strings must use double quotes (\"), not '");
    fail(c === undefined ? 'unexpected end of the text: a value is missing' : `unexpected ${here()}: expected a value`);
  };
  const object = () => {
    i++;
    ws();
    if (text[i] === '}') return void i++;
    for (;;) {
      ws();
      if (text[i] !== '"') fail(text[i] === undefined ? "unexpected end of the text: a '}' is missing" : `expected a property name in double quotes, found ${here()}`);
      string();
      ws();
      if (text[i] !== ':') fail(`expected ':' after the property name, found ${here()}`);
      i++;
      value();
      ws();
      if (text[i] === ',') {
        i++;
        ws();
        if (text[i] === '}') fail("a trailing comma before '}' (remove the comma)");
        continue;
      }
      if (text[i] === '}') return void i++;
      fail(`expected ',' or '}' after a property value, found ${here()}`);
    }
  };
  const array = () => {
    i++;
    ws();
    if (text[i] === ']') return void i++;
    for (;;) {
      value();
      ws();
      if (text[i] === ',') {
        i++;
        ws();
        if (text[i] === ']') fail("a trailing comma before ']' (remove the comma)");
        continue;
      }
      if (text[i] === ']') return void i++;
      fail(`expected ',' or ']' after an array item, found ${here()}`);
    }
  };
  try {
    ws();
    if (i >= text.length) fail('the text is empty');
    value();
    ws();
    if (i < text.length) fail(`unexpected ${here()} after the end of the JSON value`);
    return undefined;
  } catch (err) {
    if (err instanceof JsonSyntax) return { offset: err.offset, reason: err.reason };
    throw err;
  }
}
