import { describe, expect, it } from 'vitest';
import { validateScenario } from './validate.js';
import { createScenario } from './test-support/factories.js';

// Requests go to the base URL's origin with each template's path, on every engine (undici's Client
// takes an origin only: a path there failed every request with "invalid url"). A base URL with more
// than scheme, host and port is refused at validation, naming what is extra.

const external = (url: string, extra: object = {}) => ({ architecture: 'external' as const, url, ...extra });

function messages(...urls: string[]): string[] {
  const result = validateScenario(createScenario({ servers: urls.map((u) => external(u)) }));
  return result.ok ? [] : result.issues.map((i) => `${i.path}: ${i.message}`);
}

describe('an external server\'s base URL', () => {
  it('with a path, a query or a fragment is refused with a one-line reason naming it', () => {
    expect(messages('http://127.0.0.1:8080/api/', 'http://127.0.0.1:8080/?x=1', 'http://127.0.0.1:8080/?', 'http://127.0.0.1:8080#top', 'http://[::1]:8080/v1')).toEqual([
      "servers[0].url: the base URL has a path '/api/'; put the path in each request's path, got \"http://127.0.0.1:8080/api/\"",
      "servers[1].url: the base URL has a query '?x=1'; put it in each request's path, got \"http://127.0.0.1:8080/?x=1\"",
      "servers[2].url: the base URL has a query '?'; put it in each request's path, got \"http://127.0.0.1:8080/?\"",
      "servers[3].url: the base URL has a fragment '#top'; it is scheme, host and port only, got \"http://127.0.0.1:8080#top\"",
      "servers[4].url: the base URL has a path '/v1'; put the path in each request's path, got \"http://[::1]:8080/v1\"",
    ]);
  });

  it('of scheme, host and port (with or without the trailing /) validates, and readiness.url may still have a path', () => {
    expect(messages('http://127.0.0.1:8080', 'http://127.0.0.1:8080/', 'https://localhost', 'http://[::1]:9')).toEqual([]);
    const withProbe = validateScenario(createScenario({ servers: [external('http://127.0.0.1:8080', { readiness: { url: 'http://127.0.0.1:8080/health?deep=1' } })] }));
    expect(withProbe.ok).toBe(true);
  });

  it('set by a matrix value is refused in the cell that sets it', () => {
    const result = validateScenario(createScenario({ servers: [external('http://127.0.0.1:8080')], matrix: { 'servers[0].url': ['http://127.0.0.1:8080', 'http://127.0.0.1:8080/api'] } }));
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).toContain("has a path '/api'");
  });
});
