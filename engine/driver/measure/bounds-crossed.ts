import { MAX_EXTRACT_BODY_BYTES, MAX_REQUEST_BYTES, sizeText } from '../../../contract/request-limits.js';

// What of a phase crossed a bound of contract/request-limits.ts, counted by its client groups and
// worded once for the phase's note (the run's engine note): the rows say only 'other' or 'extract',
// the note says why.

export class BoundsCrossed {
  /** requests not built nor sent: over MAX_REQUEST_BYTES as built */
  requests = 0;
  /** flow steps whose body passed MAX_EXTRACT_BODY_BYTES */
  bodies = 0;

  /** The one wording, or null when nothing crossed a bound. */
  note(phaseName: string): string | null {
    const parts: string[] = [];
    if (this.requests > 0) parts.push(`${this.requests} request${this.requests === 1 ? ' was' : 's were'} not sent: over the ${sizeText(MAX_REQUEST_BYTES)} bound of a request as built (path, headers and body), counted as 'other' errors`);
    if (this.bodies > 0) parts.push(`${this.bodies} extract step${this.bodies === 1 ? '' : 's'} failed: the body passed the ${sizeText(MAX_EXTRACT_BODY_BYTES)} bound of what a step keeps to extract from`);
    return parts.length === 0 ? null : `${phaseName}: ${parts.join('; ')}`;
  }
}
