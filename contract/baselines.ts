import { z } from 'zod';

// A baseline is the run a scenario's new runs are judged against (issue 27): one per scenario name
// and profile, since a quick run and a full run of one scenario are different loads. A run of a
// repeated group stands for its whole group: the group's runs are the baseline's side.

export const BASELINE_PROFILES = ['quick', 'full'] as const;
export const BaselineProfile = z.enum(BASELINE_PROFILES);
export type BaselineProfile = z.infer<typeof BaselineProfile>;

/** A run's profile: the one place quick becomes a baseline's key. */
export const profileOf = (quick: boolean): BaselineProfile => (quick ? 'quick' : 'full');

export const Baseline = z.object({
  scenarioName: z.string(),
  profile: BaselineProfile,
  runId: z.number(),
  pinnedAt: z.string(),
  /** the pinned run's title and user-given name, for lists */
  title: z.string(),
  name: z.string().nullable(),
  /** the runs that stand for the baseline: the pinned run's repeated group, or the run alone */
  runIds: z.array(z.number()),
});
export type Baseline = z.infer<typeof Baseline>;
