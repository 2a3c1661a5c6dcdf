import {
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { probeFraming } from '../frame-probe';
import { type Area, buttonBox, clampInto, panelBox, sizePx, type WidgetSettings } from '../../../../widget/options';

/** The spec's preview frame: 600 px high on desktop, a 375×667 phone on mobile (part 2 §9). */
export const FRAME_HEIGHT = 600;
export const MOBILE_FRAME = { width: 375, height: 667 };
/** A small chat panel, as on a real site (the widget itself opens 380×600 at most). */
export const PREVIEW_PANEL = { width: 340, height: 480 };
export const DRAG_THRESHOLD_PX = 5;
export const ARROW_STEP_PX = 10;
/** A site that has not loaded by then is reported (spec §8 "Failed to load website"). */
export const WEBSITE_TIMEOUT_MS = 10_000;

const CHAT_ICON = (
  <svg
    viewBox="0 0 24 24"
    width="28"
    height="28"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    <path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z" />
  </svg>
);

/** An example page drawn in grey blocks, for owners without a website address (or whose site refuses frames). */
function MockSite() {
  return (
    <div className="wp-mock" aria-hidden="true">
      <span className="wp-mock-bar" />
      <span className="wp-mock-hero" />
      <div className="wp-mock-lines">
        <span />
        <span />
        <span />
      </div>
      <div className="wp-mock-cards">
        <span />
        <span />
        <span />
        <span />
      </div>
    </div>
  );
}

/** A page of Kesher's own origin must not get allow-same-origin next to allow-scripts (it could lift its sandbox). */
const sameOrigin = (url: string) => {
  try {
    return new URL(url).origin === window.location.origin;
  } catch {
    return true;
  }
};

function useAreaSize(ref: RefObject<HTMLDivElement | null>, fallback: Area): Area {
  const [area, setArea] = useState<Area>(fallback);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const width = element.clientWidth;
      const height = element.clientHeight;
      if (width > 0 && height > 0)
        setArea((now) => (now.width === width && now.height === height ? now : { width, height }));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return area;
}

interface Props {
  settings: WidgetSettings;
  device: 'desktop' | 'mobile';
  /** The owner's site to show behind the widget, or null for the example page. */
  websiteUrl: string | null;
  /** Called with the address that refused to be framed or did not load. */
  onWebsiteFailed: (url: string) => void;
  typing: boolean;
  chatOpen: boolean;
  onButton: () => void;
  onMove: (position: { x: number; y: number }) => void;
  panelTitle: string;
  onClosePanel: () => void;
  panelBody: ReactNode;
}

/**
 * The live preview: a website (or the example page) in the spec's frame with the widget's button on
 * top, placed by the same function as widget.js. Dragging the button (or the arrow keys) sets a
 * custom position; clicking it asks the page to open the chat panel.
 */
export function PreviewStage({
  settings,
  device,
  websiteUrl,
  onWebsiteFailed,
  typing,
  chatOpen,
  onButton,
  onMove,
  panelTitle,
  onClosePanel,
  panelBody,
}: Props) {
  const { t } = useTranslation('widgetPreview');
  const frameRef = useRef<HTMLDivElement>(null);
  const area = useAreaSize(frameRef, device === 'mobile' ? MOBILE_FRAME : { width: 800, height: FRAME_HEIGHT });
  const [drag, setDrag] = useState<{ left: number; top: number } | null>(null);
  const press = useRef<{ id: number; x: number; y: number; left: number; top: number; moved: boolean } | null>(null);
  const size = sizePx(settings.buttonSize);
  const placed = buttonBox(settings, area);
  const box = drag ? { ...placed, ...drag } : placed;
  const panel = panelBox(box, area, PREVIEW_PANEL);

  // A site that refuses to be framed, or never loads, is reported; the example page shows instead. The
  // frame's own `load` proves nothing (a refused page loads the browser's error page), so a probe asks.
  const siteLoaded = useRef(false);
  useEffect(() => {
    if (!websiteUrl) return;
    siteLoaded.current = false;
    const controller = new AbortController();
    const timer = setTimeout(() => siteLoaded.current || onWebsiteFailed(websiteUrl), WEBSITE_TIMEOUT_MS);
    void probeFraming(websiteUrl, { timeoutMs: WEBSITE_TIMEOUT_MS, signal: controller.signal }).then(
      (answer) => answer === 'refused' && onWebsiteFailed(websiteUrl),
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [websiteUrl, onWebsiteFailed]);

  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    if (event.button !== 0) return;
    press.current = {
      id: event.pointerId,
      x: event.clientX,
      y: event.clientY,
      left: box.left,
      top: box.top,
      moved: false,
    };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLButtonElement>) => {
    const p = press.current;
    if (!p || event.pointerId !== p.id) return;
    const dx = event.clientX - p.x;
    const dy = event.clientY - p.y;
    if (!p.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return;
    p.moved = true;
    setDrag(clampInto(p.left + dx, p.top + dy, { width: size, height: size }, area));
  };
  const onPointerUp = (event: PointerEvent<HTMLButtonElement>) => {
    const p = press.current;
    if (!p || event.pointerId !== p.id) return;
    press.current = null;
    if (p.moved) {
      const at = clampInto(
        p.left + event.clientX - p.x,
        p.top + event.clientY - p.y,
        { width: size, height: size },
        area,
      );
      setDrag(null);
      onMove({ x: at.left, y: at.top });
    } else onButton();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
    if (!step) return;
    event.preventDefault();
    const at = clampInto(
      box.left + step[0]! * ARROW_STEP_PX,
      box.top + step[1]! * ARROW_STEP_PX,
      { width: size, height: size },
      area,
    );
    onMove({ x: at.left, y: at.top });
  };

  return (
    <div
      ref={frameRef}
      className={`wp-frame${device === 'mobile' ? ' wp-mobile' : ''}`}
      role="region"
      aria-label={t('previewLabel')}
      data-testid="preview-frame"
    >
      {websiteUrl ? (
        <iframe
          className="wp-site"
          src={websiteUrl}
          title={t('yourWebsite')}
          // No top navigation: a site that "breaks out of frames" cannot take the owner away from Kesher.
          sandbox={sameOrigin(websiteUrl) ? 'allow-scripts allow-forms' : 'allow-scripts allow-same-origin allow-forms'}
          referrerPolicy="no-referrer"
          onLoad={() => {
            siteLoaded.current = true;
          }}
        />
      ) : (
        <MockSite />
      )}
      <button
        type="button"
        className={`wp-button${typing ? ' wp-typing' : ''}${drag ? ' wp-dragging' : ''}`}
        style={{
          left: box.left,
          top: box.top,
          width: size,
          height: size,
          background: settings.buttonColor,
          color: settings.textColor,
        }}
        aria-label={chatOpen ? t('minimizeChat') : t('openChat')}
        aria-expanded={chatOpen}
        data-typing={typing}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          press.current = null;
          setDrag(null);
        }}
        onClick={(event) => {
          // Pointer presses are handled above; a keyboard "click" (Enter/Space) has detail 0.
          if (event.detail === 0) onButton();
        }}
        onKeyDown={onKeyDown}
      >
        {settings.avatarUrl ? <img src={settings.avatarUrl} alt="" /> : CHAT_ICON}
      </button>
      {chatOpen ? (
        <section
          className="wp-panel"
          style={{ left: panel.left, top: panel.top, width: panel.width, height: panel.height }}
          aria-label={panelTitle}
        >
          <div className="wp-panel-bar" style={{ background: settings.backgroundColor, color: settings.textColor }}>
            <span dir="auto">{panelTitle}</span>
            <button type="button" className="icon-btn" onClick={onClosePanel} aria-label={t('closeChat')}>
              ×
            </button>
          </div>
          {panelBody}
        </section>
      ) : null}
    </div>
  );
}
