import type { Finding } from '../../contract/diagnosis.js';
import { phaseCases, type DiagnosisRule } from './stored-run.js';
import { MIN_REQUESTS_FOR_P99 } from './too-little-data.js';

// A phase split into very many endpoints, each with a handful of requests: usually URLs with ids
// not grouped (a HAR import makes one endpoint per distinct path and query), so every endpoint's
// figures are noise and the tables drown the few endpoints that matter. Grouping the ids (one
// name for one shape) gives each shape enough requests to read.

/** Endpoints in one phase from which it fires: past a screen of the endpoint table, each under 5 % of the phase's requests on average. */
export const MANY_ENDPOINTS = 20;

/** A path segment or query value that is an id: a number, a UUID, or a long hex or mixed token. */
const ID = /^(\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{12,}|(?=[A-Za-z_-]*\d)[A-Za-z0-9_-]{16,})$/i;

/** An endpoint's name with its ids as {id}: "GET /items/42?ref=7" -> "GET /items/{id}?ref={id}". */
function endpointShape(name: string): string {
  return name.replace(/([/=])([^/?&=#\s]+)/g, (whole, sep: string, part: string) => (ID.test(part) ? `${sep}{id}` : whole));
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export const tooManyUrls: DiagnosisRule = {
  id: 'too-many-urls',
  kind: 'finding',
  about: {
    summary: "a phase is split into very many endpoints with few requests each (often URLs with ids not grouped, after a HAR import): per-endpoint figures are noise",
    thresholds: [
      { name: 'MANY_ENDPOINTS', value: MANY_ENDPOINTS, why: "endpoints in one phase from which it fires: past a screen of the endpoint table, each under 5 % of the phase's requests on average (k6 names the same problem 'URL grouping')" },
      { name: 'MIN_REQUESTS_FOR_P99', value: MIN_REQUESTS_FOR_P99, why: "and the median endpoint has fewer requests than its own p99 needs (too-little-data's threshold)" },
    ],
    blindSpots: ['an id is a number, a UUID or a long hex or mixed token; a slug or a name used as an id is not recognised, so the shapes are counted too high', 'a phase with many endpoints that each have enough requests is not flagged: its figures are sound, only long'],
  },
  check(stored) {
    return phaseCases(stored).flatMap(({ phase, place }): Finding[] => {
      const endpoints = phase.endpoints ?? [];
      if (endpoints.length < MANY_ENDPOINTS) return [];
      const typical = median(endpoints.map((e) => e.count));
      // NaN (a damaged stored count) fails this too: no finding on a figure that is not a number
      if (!(typical < MIN_REQUESTS_FOR_P99)) return [];
      const shapes = new Map<string, number>();
      for (const e of endpoints) shapes.set(endpointShape(e.name), (shapes.get(endpointShape(e.name)) ?? 0) + 1);
      const [topShape, topCount] = [...shapes].sort((a, b) => b[1] - a[1])[0]!;
      const grouped = shapes.size < endpoints.length;
      return [{
        rule: 'too-many-urls',
        kind: 'finding',
        text: `phase ${phase.name} is split into ${endpoints.length} endpoints of about ${Math.round(typical)} requests each: ${grouped ? `they are ${shapes.size} URL shape(s) with ids not grouped (${topCount} of them are ${topShape}), so` : 'so'} each endpoint's figures are noise`,
        evidence: { ...place, figures: [
          { name: 'endpoints', value: endpoints.length, unit: 'endpoints' },
          { name: 'URL shapes', value: shapes.size, unit: 'shapes' },
          { name: 'median requests per endpoint', value: typical, unit: 'requests' },
        ] },
        confidence: grouped ? 'high' : 'medium',
        wouldChange: grouped ? 'the endpoints named by their shape: if they still differ, they are distinct endpoints' : 'ids the shape rule does not recognise (slugs, names): look at the endpoint names',
        next: "give requests of one shape one `name` (or one template with the id from a variable, `{{id}}`), so they count as one endpoint",
      }];
    });
  },
};
