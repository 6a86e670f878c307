import { z } from 'zod';
import { JSON_TYPES, MAX_CHECK_NAME_CHARS } from './checks.js';

// A request's `expect` as the schema reads it: each key's own type here, what the keys mean together
// (one check per entry, its operands, patterns, JSON paths, unique names) in contract/checks.ts,
// which the scenario's superRefine calls (checkIssues), as it calls flowIssues.

const StatusCode = z.number().int().min(100).max(599);

export const StatusExpect = z
  .union([
    StatusCode,
    z.array(StatusCode).min(1).max(32),
    z.string().regex(/^[1-5]xx$/, 'must be a status class like "2xx"'),
    z.strictObject({ min: StatusCode, max: StatusCode }),
  ])
  .describe('one code (200), a list ([200, 201]), a class ("2xx") or a range ({"min": 200, "max": 299})');

export const CheckSpec = z
  .strictObject({
    name: z.string().min(1).max(MAX_CHECK_NAME_CHARS).optional().describe('its name in results; defaults to what it checks, e.g. "json data.id exists"'),
    status: StatusExpect.optional(),
    header: z.string().min(1).max(200).optional().describe('a response header, by name: with equals (text) or matches (a regular expression)'),
    json: z.string().min(1).max(512).optional().describe('a JSON path of the body, as extract reads it (data.items[0].id): with exists, equals or type'),
    equals: z.unknown().optional().describe("the header's text, or the JSON value at the path"),
    matches: z.string().optional().describe("a regular expression the header's value matches"),
    exists: z.boolean().optional().describe('true: the path is in the body (null counts); false: it is not'),
    type: z.enum(JSON_TYPES).optional().describe('the JSON type of the value at the path'),
    bodyIncludes: z.string().optional().describe('text the body includes'),
    bodyMatches: z.string().optional().describe('a regular expression the body matches'),
    sizeAtMost: z.number().int().min(0).optional().describe("the body's size, in bytes, at most"),
  })
  .describe('one check: status, header, json, bodyIncludes, bodyMatches or sizeAtMost');

export const Expect = z
  .strictObject({
    status: StatusExpect.optional(),
    bodyIncludes: z.string().optional(),
    checks: z.array(CheckSpec).optional().describe('more checks, each counted under its name in results (contract/checks.ts)'),
  })
  .describe("what a response must be: a status that does not match is an 'http' error at 400 and above, else a 'body' error (a list or range: 'check'); a missing bodyIncludes a 'body' error; a failed entry of checks a 'check' error");
