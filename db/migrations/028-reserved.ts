import type { Migration } from './migration.js';

// Issue 42 gave number 28 to another branch of the same round; this step stands in for it so that
// 29 (request packs) applies in order on this branch. The lead replaces it with that branch's
// migration when merging (or keeps it, a step that changes nothing, when no such migration came).
export const migration028: Migration = {
  version: 28,
  description: 'reserved for another part of issue 42 (changes nothing)',
  up() {},
};
