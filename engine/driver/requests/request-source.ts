import { phaseThinkMs } from '../../../contract/phase.js';
import { isFlow } from '../../../contract/flow.js';
import type { Phase } from '../../../contract/scenario.js';
import { Prng, TemplatePicker } from '../arrivals.js';
import { BoundsCrossed } from '../measure/bounds-crossed.js';
import { FlowUsers, type FlowResponse, type FlowUser } from './flow-users.js';
import type { PhaseInputs } from './phase-inputs.js';
import type { RequestInputs, VariableRequest } from './request-compile.js';

// What a client group sends next: a template picked by weight (or a flow's users, stepping through
// their journeys), and the values its placeholders read. Each is seeded per group on its own
// stream, so adding a placeholder changes neither the templates picked nor the arrivals.

export class RequestSource {
  /** the group's seed (its executor's arrivals draw from it too) */
  readonly seed: number;
  /** what a request's placeholders read: one object, filled per request */
  readonly inputs: RequestInputs;
  readonly picker: TemplatePicker;
  /** a flow's users (journeys), or null: templates are picked by weight */
  readonly flow: FlowUsers | null;
  private readonly dataPrng: Prng;
  /** the flow's user of the request being issued (null without a flow) */
  user: FlowUser | null = null;
  /** while the executor hears of a flow's settled step: the pause after it (µs), else -1 */
  private stepThinkUs = -1;
  /** while the executor hears of a flow's settled step: its user, until sent again at once or idled */
  private settling: FlowUser | null = null;

  constructor(
    phase: Phase,
    phaseIndex: number,
    clientIndex: number,
    slots: number,
    /** the phase's counter and data rows, shared by its groups */
    private readonly phaseInputs: PhaseInputs,
    crossed: BoundsCrossed,
  ) {
    const phaseSeed = 'seed' in phase && typeof phase.seed === 'number' ? phase.seed : 0;
    this.seed = (phaseSeed * 1000003 + phaseIndex * 7919 + clientIndex * 104729 + 1) >>> 0;
    this.inputs = { counter: 0, user: 0, row: null, vars: null, prng: new Prng(this.seed ^ 0x85ebca6b) };
    this.dataPrng = new Prng(this.seed ^ 0xc2b2ae35);
    this.picker = new TemplatePicker(
      phase.requests.map((r) => r.weight),
      new Prng(this.seed ^ 0x9e3779b9),
    );
    this.flow = isFlow(phase) ? new FlowUsers(phase.requests, clientIndex * slots, phaseThinkMs(phase) * 1000, crossed) : null;
  }

  /** The next request's counter and data row; false when a unique data file ran out (nothing is sent). */
  fill(variable: VariableRequest): boolean {
    this.inputs.counter = this.phaseInputs.nextCounter();
    if (!variable.readsData) return true;
    this.inputs.row = this.phaseInputs.nextRow(this.dataPrng);
    return this.inputs.row !== null;
  }

  /** This request's placeholder values, its counter and row already filled (fill). */
  inputsFor(user: number, vars: ReadonlyMap<string, string> | null): RequestInputs {
    this.inputs.user = user;
    this.inputs.vars = vars;
    return this.inputs;
  }

  /**
   * The template of the next request, intended at `intended`: picked by weight, or a flow user's
   * step (the user settling when the executor sends its next at once, else the idle one ready first).
   */
  next(intended: number): number {
    if (this.flow === null) return this.picker.pick();
    const user = this.settling ?? this.flow.take(intended);
    this.settling = null;
    this.user = user;
    return user.step;
  }

  /** A flow user's step ended (before the executor hears of it): its code after extraction. */
  stepSettled(user: FlowUser, code: number, response: FlowResponse, done: number): number {
    const flow = this.flow!;
    this.stepThinkUs = flow.thinkUs[user.step]!;
    code = flow.finish(user, code, response, done);
    this.settling = user;
    return code;
  }

  /** The executor has heard of the settled request: a user not sent again at once is idle. */
  settleDone(): void {
    this.stepThinkUs = -1;
    if (this.settling === null) return;
    this.flow!.idle(this.settling);
    this.settling = null;
  }

  /** the pause after the request that just settled (µs): a flow step's own, else `phaseUs` */
  thinkAfterUs(phaseUs: number): number {
    return this.stepThinkUs >= 0 ? this.stepThinkUs : phaseUs;
  }
}
