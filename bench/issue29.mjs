// Issue 29's rows alone, without the rest of `npm run bench` (~12 min instead of ~25 on a quiet
// machine): the whole tool at 10, 50 and 200 connections, the open-loop agreement at 500, 1,000 and
// 5,000 req/s and the verbs over big runs, in the same rounds and with the same figures as
// bench/run.mjs, then the "Issue 29 targets" table. Prints; writes nothing (bench/results.md is
// `npm run bench`'s). Needs dist/ and the CLI chunks built (npx tsc -p tsconfig.node.json, node
// scripts/build-cli.mjs).
//   node bench/issue29.mjs [--quick] [--long]     --quick: 1 round of 3 s each; --long: also 10M-request verbs
import os from 'node:os';
import { join } from 'node:path';
import { measureAgreement } from './agreement.mjs';
import { issue29Rows } from './issue29-targets.mjs';
import { markdown } from './table-format.mjs';
import { measureBigVerbs } from './verbs-big.mjs';
import { CONNECTIONS, measureWholeTool, USERS } from './whole-tool.mjs';

const root = join(import.meta.dirname, '..');
const quick = process.argv.includes('--quick');
const long = process.argv.includes('--long');
const load = [os.loadavg()[0]];
const started = new Date();

const wholeAt = [];
for (const users of CONNECTIONS) wholeAt.push(await measureWholeTool(root, quick ? { seconds: 3, rounds: 1, users } : { seconds: 10, rounds: users === USERS ? 3 : 2, users }));
load.push(os.loadavg()[0]);
const agreement = await measureAgreement(root, quick ? { seconds: 3, rounds: 1 } : { seconds: 10, rounds: 3 });
load.push(os.loadavg()[0]);
const bigVerbs = await measureBigVerbs(root, { sizes: long ? [650_000, 10_000_000] : [650_000], rounds: quick ? 1 : 5 });
load.push(os.loadavg()[0]);

console.log(`\n## Issue 29 targets\n\n${markdown(issue29Rows({ wholeAt, agreement, bigVerbs }))}\n`);
console.log(`Started ${started.toISOString()}${quick ? ' (--quick)' : ''}; load average (1 min) at the start and after each part: ${load.map((x) => x.toFixed(1)).join(', ')}.`);
console.log(JSON.stringify({ wholeAt, agreement, bigVerbs }));
