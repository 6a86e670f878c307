import type { RunSummary } from '../../contract/results';
import { scenarioDifferences } from '../../contract/scenario-differences';

// How the compared runs' scenarios differ from A's (contract/scenario-differences.ts, the CLI's
// wording): two versions of one scenario are the same scenario run differently, each difference a
// line; runs of another scenario are warned about.

export function ScenarioDifferences({ runs }: { runs: readonly RunSummary[] }) {
  const differences = scenarioDifferences(runs);
  const same = differences.filter((d) => d.sameScenario);
  const other = differences.filter((d) => !d.sameScenario);
  return (
    <>
      {other.length > 0 && (
        <div className="notice warning" data-testid="compare-warning">
          <strong>These runs come from different scenarios</strong>, so their figures may not be comparable:
          <ul className="plain">
            {other.flatMap((d) => d.lines).map((l) => (
              <li key={l}>{l}</li>
            ))}
          </ul>
        </div>
      )}
      {same.map((d) => (
        <div key={d.run} className="notice same-scenario" data-testid="compare-run-differently">
          <strong>{d.who} is the same scenario, run differently:</strong>
          <ul className="plain">
            {d.lines.map((l) => (
              <li key={l}>{l}</li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}
