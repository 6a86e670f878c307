import { useRef, useState } from 'react';
import type { StartRequest } from '../App';
import { Panel, Toggle } from '../ui/widgets';
import { useValidation, type Validation } from './useValidation';

function ValidationBox({ v }: { v: Validation }) {
  if (v.state === 'empty') return <div className="validation muted">Paste or open a scenario (JSON) to check it.</div>;
  if (v.state === 'checking') return <div className="validation muted">checking…</div>;
  if (v.state === 'failed') return <div className="validation bad">Could not validate: {v.message}</div>;
  if (v.result.ok) {
    const cells = v.result.cells;
    return (
      <div className="validation ok" data-testid="validation" data-ok="true">
        ✓ valid · {cells.length} cell{cells.length === 1 ? '' : 's'}
        {cells.length > 1 && <span className="muted"> ({cells.map((c) => c.label).join(' · ')})</span>}
      </div>
    );
  }
  return (
    <div className="validation bad" data-testid="validation" data-ok="false">
      <div>
        {v.result.issues.length} problem{v.result.issues.length === 1 ? '' : 's'}:
      </div>
      <ul className="issues">
        {v.result.issues.map((i, k) => (
          <li key={k}>
            <code>{i.path === '' ? '(root)' : i.path}</code>: {i.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A JSON scenario editor that validates as you type, and runs what it holds. */
export function ScenarioEditor({ text, setText, start, busy, source }: { text: string; setText: (t: string) => void; start: (r: StartRequest) => void; busy: boolean; source: string }) {
  const v = useValidation(text);
  const [quick, setQuick] = useState(true);
  const fileInput = useRef<HTMLInputElement>(null);
  const valid = v.state === 'done' && v.result.ok;
  const format = () => {
    try {
      setText(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    } catch {
      // invalid JSON stays as typed; the validation box says why
    }
  };
  return (
    <Panel
      className="editor-panel"
      title={<>Scenario editor <span className="muted">{source}</span></>}
      actions={
        <>
          <button type="button" className="btn btn-small" onClick={() => fileInput.current?.click()}>
            Open file…
          </button>
          <input ref={fileInput} type="file" accept=".json,application/json" hidden onChange={(e) => void e.target.files?.[0]?.text().then(setText)} />
          <button type="button" className="btn btn-small" onClick={format}>
            Format
          </button>
        </>
      }
    >
      <textarea
        className="editor"
        spellCheck={false}
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-label="scenario JSON"
        data-testid="scenario-editor"
        placeholder='{ "name": "my-scenario", "servers": [...], "phases": [...] }'
      />
      <ValidationBox v={v} />
      <div className="toolbar editor-actions">
        <Toggle checked={quick} onChange={setQuick} label="quick" title="apply the scenario's quick profile" />
        <span className="spacer" />
        <button type="button" className="btn btn-primary" disabled={!valid || busy} onClick={() => start({ scenario: { text }, quick })} data-testid="editor-run" title={busy ? 'a run is in progress' : undefined}>
          Run this scenario
        </button>
      </div>
    </Panel>
  );
}
