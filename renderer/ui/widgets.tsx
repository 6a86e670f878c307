import type { ReactNode } from 'react';

// Small presentational pieces every view uses.

export function Badge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{status}</span>;
}

export function ErrorBox({ message, onDismiss }: { message: string | null; onDismiss?: () => void }) {
  if (message === null) return null;
  return (
    <div className="error-box" role="alert">
      <span className="error-icon" aria-hidden>!</span>
      <span className="error-text">{message}</span>
      {onDismiss && (
        <button type="button" className="btn-link" onClick={onDismiss}>
          dismiss
        </button>
      )}
    </div>
  );
}

/** A titled box; `busy`: what it shows is about to be replaced (aria-busy), its figures still those of its title. */
export function Panel({ title, actions, children, className, testId, busy }: { title?: ReactNode; actions?: ReactNode; children: ReactNode; className?: string; testId?: string; busy?: boolean }) {
  return (
    <section className={`panel ${className ?? ''}`} data-testid={testId} aria-busy={busy === true ? true : undefined}>
      {(title !== undefined || actions !== undefined) && (
        <header className="panel-head">
          <h3>{title}</h3>
          <div className="panel-actions">{actions}</div>
        </header>
      )}
      {children}
    </section>
  );
}

export function Segmented<T extends string>({ value, options, onChange, label }: { value: T; options: readonly { value: T; label: string; title?: string }[]; onChange: (v: T) => void; label: string }) {
  return (
    <div className="segmented" role="radiogroup" aria-label={label}>
      {options.map((o) => (
        <button key={o.value} type="button" role="radio" aria-checked={o.value === value} className={o.value === value ? 'on' : ''} title={o.title} onClick={() => onChange(o.value)}>
          {o.label}
        </button>
      ))}
    </div>
  );
}

export function Toggle({ checked, onChange, label, title }: { checked: boolean; onChange: (v: boolean) => void; label: string; title?: string }) {
  return (
    <label className="toggle" title={title}>
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span className="toggle-track" aria-hidden />
      {label}
    </label>
  );
}

export function Stat({ label, value, unit }: { label: string; value: ReactNode; unit?: string }) {
  return (
    <div className="stat">
      <div className="stat-value">
        {value}
        {unit !== undefined && <span className="stat-unit"> {unit}</span>}
      </div>
      <div className="stat-label">{label}</div>
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}
