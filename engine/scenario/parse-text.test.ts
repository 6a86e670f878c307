import { describe, expect, it } from 'vitest';
import { ScenarioInvalidError } from './errors.js';
import { locateJsonError, parseScenarioText } from './parse-text.js';

function jsonIssue(text: string): { message: string; line?: number; column?: number } {
  try {
    parseScenarioText(text, 'my.json');
  } catch (err) {
    expect(err).toBeInstanceOf(ScenarioInvalidError);
    const e = err as ScenarioInvalidError;
    expect(e.code).toBe('LS_ERR_SCENARIO_INVALID');
    expect(e.message.startsWith('my.json is not a valid scenario')).toBe(true);
    expect(e.issues).toHaveLength(1);
    return e.issues[0]!;
  }
  throw new Error('expected a JSON error');
}

describe('parseScenarioText', () => {
  it('parses JSON (a BOM is allowed)', () => {
    expect(parseScenarioText('\uFEFF{"a": [1, 2]}', 'x')).toEqual({ a: [1, 2] });
  });

  it('bad JSON: line, column and what is wrong', () => {
    expect(jsonIssue('{\n  "name": "x",\n  "phases": [1, 2,]\n}')).toEqual({
      path: '(json)',
      message: "invalid JSON at line 3, column 19: a trailing comma before ']' (remove the comma)",
      line: 3,
      column: 19,
    });
    expect(jsonIssue('{\n  "a": 1\n  "b": 2\n}').message).toBe("invalid JSON at line 3, column 3: expected ',' or '}' after a property value, found \"\\\"\"");
    expect(jsonIssue('{"a": }').message).toBe('invalid JSON at line 1, column 7: unexpected "}": expected a value');
    expect(jsonIssue("{'a': 1}").message).toBe('invalid JSON at line 1, column 2: expected a property name in double quotes, found "\'"');
    expect(jsonIssue('{"a": 1').message).toBe("invalid JSON at line 1, column 8: expected ',' or '}' after a property value, found the end of the text");
    expect(jsonIssue('').message).toBe('invalid JSON at line 1, column 1: the text is empty');
    expect(jsonIssue('{} x').message).toBe('invalid JSON at line 1, column 4: unexpected "x" after the end of the JSON value');
    expect(jsonIssue('{"a": "x\ny"}').message).toMatch(/^invalid JSON at line 1, column 9: a control character/);
  });

  it('the scanner agrees with JSON.parse on what is valid', () => {
    for (const text of ['{}', '[]', '0', '-1.5e+3', '"\\u00e9\\n"', '{"a":[true,false,null,{"b":""}]}', ' [1 , 2 ] ']) {
      expect(() => JSON.parse(text)).not.toThrow();
      expect(locateJsonError(text)).toBeUndefined();
    }
    for (const text of ['01', '1.', '.5', '[1 2]', '{"a" 1}', 'nul', '"\\x"', '+1', '[,]']) {
      expect(() => JSON.parse(text)).toThrow();
      expect(locateJsonError(text)).toBeDefined();
    }
  });
});
