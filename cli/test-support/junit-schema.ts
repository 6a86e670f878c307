import { readFileSync } from 'node:fs';
import { validateXML } from 'xmllint-wasm';
import { rootPath } from '../../engine/paths.js';

/** Validates a JUnit file against Apache Ant's JUnit schema (junit-ant.xsd) with libxml2's xmllint (WebAssembly). */
export async function junitSchemaErrors(xml: string): Promise<string[]> {
  const schema = readFileSync(rootPath('cli/test-support/junit-ant.xsd'), 'utf8');
  const result = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [{ fileName: 'junit-ant.xsd', contents: schema }] });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}
