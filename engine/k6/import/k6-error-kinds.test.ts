import { describe, expect, it } from 'vitest';
import { errorKindOfK6 } from './k6-request.js';

// k6's error codes read as the native driver's kinds (the generated script maps them alike): a
// malformed answer, which k6 reports as a generic error (1000) with Go's message, is 'protocol'.

describe("k6's errors as error kinds", () => {
  it.each([
    ['net/http: HTTP/1.x transport connection broken: malformed HTTP status code "2000"'],
    ['http: message cannot contain multiple Content-Length headers; got ["2" "5"]'],
    ['bad Content-Length "2abc"'],
    ['net/http: HTTP/1.x transport connection broken: invalid byte in chunk length'],
  ])('a malformed answer (%s): protocol', (error) => {
    expect(errorKindOfK6({ error_code: '1000', error })).toBe('protocol');
  });

  it('a reset, a timeout and an unknown generic error keep their kinds', () => {
    expect(errorKindOfK6({ error_code: '1220', error: 'read: connection reset by peer' })).toBe('reset');
    expect(errorKindOfK6({ error_code: '1050', error: 'request timeout' })).toBe('timeout');
    expect(errorKindOfK6({ error_code: '1000', error: 'something else' })).toBe('other');
  });
});
