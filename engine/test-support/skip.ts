import type { TestContext, TestOptions } from 'vitest';

// What the suite did not run, and why. Every skip goes through here with its reason, kept in the
// test's meta as `skipReason` (one key, read by engine/test-support/skipped-reporter.ts, which names
// each skipped test at the end of `npm test`, and by scripts/reliability-doc.mjs, which lists it as
// "skipped (reason)"). A bare skipIf says nothing: a fresh clone without k6 looked like a full pass.

declare module 'vitest' {
  interface TaskMeta {
    /** why this test did not run (set only when it was skipped) */
    skipReason?: string;
  }
}

/** it()/describe() options: run when `condition` holds, else skip, recording `reason`. */
export function skipUnless(condition: boolean, reason: string | null): TestOptions {
  return condition ? {} : { skip: true, meta: { skipReason: reason ?? undefined } };
}

/** Inside a running test, for what is known only then (a mount that failed): skip it, recording `reason`. */
export function skipNow(ctx: TestContext, reason: string): never {
  ctx.task.meta.skipReason = reason;
  return ctx.skip(reason);
}
