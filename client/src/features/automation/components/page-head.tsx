import type { ReactNode } from 'react';

/** Title, subtitle and the Add button of each page; the filters sit under it. */
export function PageHead({ title, subtitle, action }: { title: string; subtitle: string; action: ReactNode }) {
  return (
    <header className="automation-head">
      <div>
        <h1>{title}</h1>
        <p className="muted">{subtitle}</p>
      </div>
      {action}
    </header>
  );
}
