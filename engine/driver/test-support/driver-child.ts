import type { Phase } from '../../../contract/scenario.js';
import { collect } from './phases.js';

// Runs one driver plan in a process of its own and prints what it measured with the growth of the
// process' peak resident memory, so a test of memory gets a process no earlier test has grown
// (peak RSS never comes down within a process). Started by test-support/child-driver.ts:
//   node dist/engine/driver/test-support/driver-child.js '{"baseUrl": "...", "phases": [...]}'

const plan = JSON.parse(process.argv[2] ?? '{}') as { baseUrl: string; phases: Phase[] };
const peakRss = (): number => process.resourceUsage().maxRSS * 1024;
const before = peakRss();
const { result, rows } = await collect(plan.baseUrl, plan.phases);
process.stdout.write(JSON.stringify({ result, rows, peakRssGrowth: peakRss() - before }));
