import { relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

// A vitest reporter beside the default one (vitest.config.ts): after vitest's own closing lines,
// which CI reads and which stay as they are, ONE line naming every test that did not run and why
// (the reason given to skipUnless / skipNow in engine/test-support/skip.ts, or ctx.skip's note):
//   skipped 3: engine/k6/k6-real.test.ts > k6 v1.8.1 itself > ..., ... (k6 is not installed ...); ...
// Under a name filter (-t), the tests it left out were not meant to run: counted, not named.

export default class SkippedReporter implements Reporter {
  private root = process.cwd();
  private filter: RegExp | undefined;

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    this.filter = vitest.config.testNamePattern;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    console.log(skippedLine(modules, this.root, this.filter));
  }
}

/** The summary line: skipped tests grouped by reason, in the order first met. */
export function skippedLine(modules: ReadonlyArray<TestModule>, root: string, filter: RegExp | undefined): string {
  const byReason = new Map<string, string[]>();
  let leftOut = 0;
  let count = 0;
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      const result = test.result();
      if (result.state !== 'skipped') continue;
      // vitest matches -t against the names from the file down, joined by spaces
      if (filter !== undefined && !filter.test(test.fullName.split(' > ').join(' '))) {
        leftOut++;
        continue;
      }
      const reason = test.meta().skipReason ?? result.note ?? (test.options.mode === 'todo' ? 'todo' : null);
      count++;
      const key = reason ?? 'no reason given';
      const names = byReason.get(key) ?? [];
      names.push(`${relative(root, module.moduleId)} > ${test.fullName}`);
      byReason.set(key, names);
    }
  }
  const groups = [...byReason].map(([reason, names]) => `${names.join(', ')} (${reason})`);
  const rest = leftOut > 0 ? ` (and ${leftOut} left out by the name filter)` : '';
  return groups.length === 0 ? `skipped 0${rest}` : `skipped ${count}: ${groups.join('; ')}${rest}`;
}
