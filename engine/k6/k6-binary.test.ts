import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rootPath } from '../paths.js';
import { findK6, K6_INSTALL, K6_MISSING_MESSAGE, K6_PINNED } from './k6-binary.js';

describe('finding k6', () => {
  it('says how to install the pinned version where there is none, and CI installs that same version', () => {
    expect(findK6({ LOADSCOPE_K6: '/nonexistent/k6' })).toBeNull();
    expect(findK6({ PATH: '/nonexistent', GOPATH: '/nonexistent' })).toBeNull();
    expect(K6_MISSING_MESSAGE).toContain(K6_INSTALL);
    expect(readFileSync(rootPath('.ci/run'), 'utf8')).toContain(`go install go.k6.io/k6@${K6_PINNED}`);
  });
});
