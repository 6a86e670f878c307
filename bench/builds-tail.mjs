// The tail of two or more builds side by side (issue 29): bench/agreement.mjs's open loop against
// nginx, beside oha, run by each build's own bin/loadscope.js in interleaved rounds (a build is a
// worktree with its own dist/, as bench/builds-ab.mjs says how to make one). Prints p99, max, lag
// p99 and the share of requests over 0.5 ms, sent on time or not, per round and build.
//   RATE=1000 ROUNDS=3 node bench/builds-tail.mjs /tmp/old .
import { resolve } from 'node:path';
import { measureAgreement } from './agreement.mjs';

const roots = process.argv.slice(2).map((r) => resolve(r));
if (roots.length === 0) throw new Error('the folders of at least one build');
const rounds = Number(process.env.ROUNDS ?? 3);
const rate = Number(process.env.RATE ?? 1000);
for (let i = 0; i < rounds; i++) {
  for (const root of i % 2 ? [...roots].reverse() : roots) {
    const out = await measureAgreement(root, { seconds: 10, rounds: 1, rates: [rate] });
    const l = out.results[0].loadscope;
    const o = out.results[0].oha;
    console.log(
      `${root}\tp99 ${l.p99.toFixed(3)}\tmax ${l.max.toFixed(2)}\tlag p99 ${l.lagP99.toFixed(3)}\tover 0.5 ms ${l.slowPct.toFixed(2)} %\tsent on time ${l.slowOnTimePct.toFixed(2)} %` +
        (o ? `\toha p99 ${o.p99.toFixed(3)} max ${o.max.toFixed(2)}` : ''),
    );
  }
}
