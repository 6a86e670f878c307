import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { rootPath } from '../../paths.js';

// Postman collections v2.1 published on the npm registry, each with the OpenAPI description of the
// same requests, written by people who are not us: postman-to-openapi (MIT, joolfe/postman-to-openapi)
// ships its test collections (test/resources/input/v21/) and the descriptions its converter makes of
// them (test/resources/output/), up to 1.x; from 2.x it ships neither. A devDependency:
// `npm install -D postman-to-openapi@1.7.3`. Without it the tests that need it are skipped, naming
// that command (engine/test-support/skip.ts), never passed.

const PUBLISHED_PACKAGE = 'postman-to-openapi@1.7.3';

export interface PublishedCollections {
  /** test/resources/input/v21/<name>.json */
  collection(name: string): string;
  /** test/resources/output/<name>.yml */
  description(name: string): string;
}

/** The package's files, or null when it is not installed. */
export function publishedCollections(): PublishedCollections | null {
  let dir: string;
  try {
    dir = dirname(createRequire(rootPath('package.json')).resolve('postman-to-openapi/package.json'));
  } catch {
    return null;
  }
  return {
    collection: (name) => join(dir, 'test', 'resources', 'input', 'v21', `${name}.json`),
    description: (name) => join(dir, 'test', 'resources', 'output', `${name}.yml`),
  };
}

export const notInstalled = `${PUBLISHED_PACKAGE} is not installed (npm install -D ${PUBLISHED_PACKAGE}): its published collections are what these tests import`;
