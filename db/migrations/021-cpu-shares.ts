import type { Migration } from './migration.js';

// What the CPU rules of the diagnosis read (issue 38): samples.top_cpu, the server's busiest process
// alone (100 = one core), so a run can say one process did the work while the others idled
// (not-parallel); windows.own_cpu, the Loadscope process's own CPU over each live window, so it can
// say the generator itself was busy (generator-limited). NULL in rows stored before this.
export const migration021: Migration = {
  version: 21,
  description: "samples.top_cpu (the busiest process) and windows.own_cpu (the generator's own CPU)",
  up(db) {
    db.exec(`
      ALTER TABLE samples ADD COLUMN top_cpu REAL;
      ALTER TABLE windows ADD COLUMN own_cpu REAL;
    `);
  },
};
