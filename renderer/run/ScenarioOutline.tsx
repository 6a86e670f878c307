import type { Scenario } from '../../contract/scenario';
import { matrixFieldsOf, phaseLoad, phasePaths, phaseStart, serverLine } from '../scenarios/scenario-info';
import { phaseName } from '../../contract/phase';

export interface OutlineProps {
  scenario: Scenario;
  compact?: boolean;
  /** which sizes these are (the engine's answer for the quick setting), when known */
  sizes?: 'quick' | 'full';
  /** how many matrix cells the engine expands it to, when known */
  cells?: number;
}

/** What a scenario will do: its servers, its phases in order, and the matrix it expands to. */
export function ScenarioOutline({ scenario, compact = false, sizes, cells }: OutlineProps) {
  const matrix = Object.entries(scenario.matrix ?? {});
  return (
    <div className={`outline ${compact ? 'compact' : ''}`} data-testid="scenario-outline" data-sizes={sizes}>
      {scenario.description !== undefined && !compact && <p className="description">{scenario.description}</p>}
      <div className="outline-cols">
        <div>
          <h4>Servers ({scenario.servers.length})</h4>
          <ul className="plain">
            {scenario.servers.map((s, i) => (
              <li key={i}>
                <span className="chip">{s.architecture}</span> {serverLine(s)}
              </li>
            ))}
          </ul>
          {matrix.length > 0 && (
            <>
              <h4>Matrix{cells !== undefined ? ` (${cells} cells)` : ''}</h4>
              <ul className="plain">
                {matrix.map(([path, values]) => (
                  <li key={path}>
                    <code>{path}</code>: {values.map((v) => JSON.stringify(v)).join(' · ')}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
        <div>
          <h4>Phases ({scenario.phases.length})</h4>
          <table className="data compact">
            <thead>
              <tr>
                <th className="left">#</th>
                <th className="left">name</th>
                <th className="left">starts</th>
                <th className="left">executor</th>
                <th className="left">load</th>
                <th className="left">requests</th>
              </tr>
            </thead>
            <tbody>
              {scenario.phases.map((p, i) => (
                <tr key={i}>
                  <td className="left muted">{i + 1}</td>
                  <td className="left">{phaseName(p, i)}</td>
                  <td className="left">{phaseStart(p, i)}</td>
                  <td className="left">{p.executor}</td>
                  <td className="left">{phaseLoad(p, matrixFieldsOf(scenario.matrix, i))}</td>
                  <td className="left mono">{phasePaths(p)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}
