import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/** A disclosure menu: opens on click, closes on navigation, Escape or a click elsewhere. */
export function Dropdown({
  label,
  children,
  buttonLabel,
  className = '',
}: {
  label: ReactNode;
  buttonLabel?: string;
  children: ReactNode;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const location = useLocation();
  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => ref.current && !ref.current.contains(e.target as Node) && setOpen(false);
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  return (
    <div className={`menu ${className}`} ref={ref}>
      <button
        type="button"
        className="btn btn-ghost"
        aria-expanded={open}
        aria-haspopup="true"
        aria-label={buttonLabel}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="menu-label">{label}</span> <span aria-hidden="true">▾</span>
      </button>
      {open ? (
        <div className="menu-list" onClick={(e) => (e.target as HTMLElement).closest('a,button') && setOpen(false)}>
          {children}
        </div>
      ) : null}
    </div>
  );
}
