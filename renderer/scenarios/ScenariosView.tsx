import { useEffect, useState } from 'react';
import type { StartRequest } from '../App';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';
import { ErrorBox } from '../ui/widgets';
import { ScenarioEditor } from './ScenarioEditor';
import { useScenarioList } from './useScenarioList';

/** The built-in scenarios, and an editor to change one or write a new one. */
export function ScenariosView({ initialText, start, busy }: { initialText: string | null; start: (r: StartRequest) => void; busy: boolean }) {
  const api = useApi();
  const { list, error } = useScenarioList();
  const [text, setText] = useState(initialText ?? '');
  const [source, setSource] = useState(initialText === null ? '' : 'from the Run view');
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    if (initialText !== null) {
      setText(initialText);
      setSource('from the Run view');
    }
  }, [initialText]);

  const load = (name: string) => {
    api.invoke('scenarios:get', { name }).then(
      (r) => {
        setText(r.text);
        setSource(`copy of built-in "${r.name}"`);
        setLoadError(null);
      },
      (err: unknown) => setLoadError(errorMessage(err)),
    );
  };

  return (
    <div className="view scenarios-view" data-testid="scenarios-view">
      <div className="view-head">
        <h1>Scenarios</h1>
        <span className="muted">{list === null ? 'loading…' : `${list.length} built-in`}</span>
      </div>
      <ErrorBox message={error ?? loadError} />
      <div className="scenarios-layout">
        <div className="scenario-list" data-testid="scenario-list">
          {list?.map((s) => (
            <article key={s.name} className="scenario-card">
              <header>
                <h3>{s.title}</h3>
                <code className="muted">{s.name}</code>
              </header>
              <p>{s.description}</p>
              <div className="card-meta">
                {s.servers.map((x, i) => (
                  <span key={i} className="chip">
                    {x}
                  </span>
                ))}
              </div>
              <div className="card-foot">
                <span className="muted small">
                  {s.phases} phase{s.phases === 1 ? '' : 's'} · {s.cells} cell{s.cells === 1 ? '' : 's'}
                </span>
                <span className="spacer" />
                <button type="button" className="btn btn-small" onClick={() => load(s.name)}>
                  Edit a copy
                </button>
                <button type="button" className="btn btn-small btn-primary" disabled={busy} onClick={() => start({ scenario: { name: s.name }, quick: true })}>
                  Run quick
                </button>
              </div>
            </article>
          ))}
        </div>
        <ScenarioEditor text={text} setText={setText} start={start} busy={busy} source={source} />
      </div>
    </div>
  );
}
