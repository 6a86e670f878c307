import { createHmac, timingSafeEqual } from 'node:crypto';
import { jsonResult, type ApiCall, type WorkResult } from '../work.js';

// The bundled API's calls (routes: ../api-request.ts). Any user logs in with the password "secret".
// A token is the user name and an HMAC of it under a fixed key: stateless, so every process and
// thread of every architecture checks it alike with nothing shared. Not security: a test target.

export const API_PASSWORD = 'secret';
const KEY = 'loadscope bundled api';

function sign(user: string): string {
  return createHmac('sha256', KEY).update(user).digest('base64url').slice(0, 22);
}

export function tokenFor(user: string): string {
  return `${Buffer.from(user).toString('base64url')}.${sign(user)}`;
}

/** The user a token names, or null when it is missing or not one this API issued. */
export function userOf(token: string | null): string | null {
  if (token === null) return null;
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const user = Buffer.from(token.slice(0, dot), 'base64url').toString();
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(sign(user));
  return given.length === expected.length && timingSafeEqual(given, expected) ? user : null;
}

const unauthorized = (): WorkResult => jsonResult({ error: 'missing or invalid token (Authorization: Bearer <token from POST /api/login>)' }, 401);

export function runApi(call: ApiCall): WorkResult {
  switch (call.op) {
    case 'login':
      return call.password === API_PASSWORD ? jsonResult({ token: tokenFor(call.user), user: call.user }) : jsonResult({ error: 'wrong user or password' }, 401);
    case 'me': {
      const user = userOf(call.token);
      return user === null ? unauthorized() : jsonResult({ user });
    }
    case 'item': {
      const user = userOf(call.token);
      if (user === null) return unauthorized();
      return jsonResult({ id: call.id, name: `item ${call.id}`, price: Math.round(call.id * 137) / 100, owner: user });
    }
    case 'echo':
      return jsonResult({ method: call.method, path: call.path, body: call.body, headers: call.headers });
  }
}
