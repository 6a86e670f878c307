import { LoadscopeError } from '../../contract/errors.js';
import { remoteHostOf } from '../../contract/scenario.js';
import { shown } from '../import-requests/limits.js';

// What a recording may open: the URL the person typed, whose origin becomes the journey's target.
// The journey it makes sends load there, so a host outside this machine needs the same consent a
// run's target does (--allow-remote, or the UI's confirmation naming the host), asked before any
// browser starts; the words are the run's, so the UI's consent question handles both alike.

/** The URL to record at, checked: http(s), no user:password@, on this machine unless allowed. */
export function recordTarget(text: string, allowRemote: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `${shown(text, 200)} is not a URL; record takes one such as http://127.0.0.1:3000/`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `record takes an http(s) URL, not ${shown(url.protocol, 20)}`);
  }
  if (url.username !== '' || url.password !== '') {
    // http://127.0.0.1:1@elsewhere/ goes elsewhere: the part before @ hides the real host
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', 'record takes a URL without user:password@ (sign in on the page instead)');
  }
  const remote = remoteHostOf(url.origin);
  if (remote !== null && !allowRemote) {
    throw new LoadscopeError('LS_ERR_NEEDS_CONSENT', `the journey this recording makes sends load outside this machine, to ${remote}; confirm it in the UI or pass --allow-remote`);
  }
  return url;
}
