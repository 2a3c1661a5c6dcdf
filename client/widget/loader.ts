import {
  type Box,
  buttonBox,
  clampInto,
  CONVERSATION_PREFIX,
  EMBED_MESSAGES,
  embedUrl,
  panelBox,
  parseWidgetOptions,
  readEmbedMessage,
  sizePx,
  type WidgetOptions,
} from './options';
import { readStorageMessage, STORAGE_MESSAGES, type StorageMessage } from './storage-messages';

/**
 * The website widget (widget.js): a floating chat button on a customer's page that opens Kesher's
 * embed page in a framed panel. It runs inside pages Kesher does not control, so it
 *  - lives in a shadow root (the page's CSS cannot reach in, ours cannot leak out);
 *  - loads the chat frame only when first opened (a page view costs one small script);
 *  - trusts only messages from Kesher's own origin and its own frame, and navigates only to http(s);
 *  - never lets an error escape into the page (every entry point is guarded).
 */

const TEXTS = {
  en: { open: 'Open chat', minimize: 'Minimize chat', close: 'Close chat', title: 'Chat' },
  he: { open: 'פתיחת הצ׳אט', minimize: 'מזעור הצ׳אט', close: 'סגירת הצ׳אט', title: 'צ׳אט' },
};

/** How far a press must travel before it counts as a drag rather than a click. */
export const DRAG_THRESHOLD_PX = 5;
export const PANEL_SIZE = { width: 380, height: 600 };
const POSITION_KEY = (token: string) => `kesher-widget-position:${token}`;

const CHAT_ICON =
  '<svg viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false"><path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"/></svg>';

const STYLE = `
:host{all:initial}
*{box-sizing:border-box}
.b{position:fixed;z-index:2147483000;border:0;margin:0;padding:0;border-radius:50%;background:var(--kw-button);color:var(--kw-text);cursor:pointer;display:grid;place-items:center;overflow:hidden;box-shadow:0 6px 18px rgba(0,0,0,.28);touch-action:none;user-select:none;-webkit-user-select:none;transition:transform .15s}
.b:hover{transform:scale(1.05)}
.b:focus-visible,.x:focus-visible{outline:3px solid #f59e0b;outline-offset:3px}
.b img{width:100%;height:100%;object-fit:cover;pointer-events:none}
.b.drag{cursor:grabbing;transition:none}
.b.typing{animation:kw-pulse 1s ease-in-out infinite}
@keyframes kw-pulse{50%{transform:scale(1.1);box-shadow:0 0 0 8px rgba(245,158,11,.45)}}
.p{position:fixed;z-index:2147483001;display:flex;flex-direction:column;background:#fff;border-radius:14px;overflow:hidden;box-shadow:0 12px 40px rgba(0,0,0,.3)}
.p[hidden]{display:none}
.t{display:flex;align-items:center;justify-content:space-between;gap:8px;background:var(--kw-bg);color:var(--kw-text);font:600 15px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;padding-inline-start:14px}
.x{all:unset;box-sizing:border-box;width:44px;height:44px;display:grid;place-items:center;cursor:pointer;color:inherit;font-size:24px;line-height:1}
iframe{flex:1;width:100%;border:0;background:#f8fafc}
@media (max-width:480px){.p{inset:0!important;width:100%!important;height:100%!important;border-radius:0}}
@media (prefers-reduced-motion:reduce){.b{transition:none}.b.typing{animation:none;box-shadow:0 0 0 4px #f59e0b}}
`;

export interface WidgetHandle {
  open(): void;
  close(): void;
  readonly isOpen: boolean;
  /** The floating button (inside the shadow root). */
  readonly button: HTMLButtonElement;
  destroy(): void;
}

/** Runs `fn`, swallowing what it throws: nothing the widget does may break the customer's page. */
function guard<A extends unknown[]>(fn: (...args: A) => void) {
  return (...args: A) => {
    try {
      fn(...args);
    } catch (error) {
      console.warn('[Kesher widget]', error);
    }
  };
}

function storedPosition(win: Window, token: string): { x: number; y: number } | null {
  try {
    const value = JSON.parse(win.localStorage.getItem(POSITION_KEY(token)) ?? 'null') as {
      x?: unknown;
      y?: unknown;
    } | null;
    return value && typeof value.x === 'number' && typeof value.y === 'number' && value.x >= 0 && value.y >= 0
      ? { x: value.x, y: value.y }
      : null;
  } catch {
    return null;
  }
}

function storePosition(win: Window, token: string, position: { x: number; y: number }) {
  try {
    win.localStorage.setItem(POSITION_KEY(token), JSON.stringify(position));
  } catch {
    // Storage blocked or full: the button stays where it was dropped for this visit.
  }
}

/**
 * The storage bridge's page side: the embed frame's stored conversations, kept in this page's
 * localStorage when the browser denies the frame its own (third-party storage blocked).
 */
function answerStorage(win: Window, message: StorageMessage, reply: (message: StorageMessage) => void) {
  let storage: Storage;
  try {
    storage = win.localStorage;
  } catch {
    if (message.type === STORAGE_MESSAGES.request) reply({ type: STORAGE_MESSAGES.snapshot, entries: {} });
    return;
  }
  const ours = () =>
    Array.from({ length: storage.length }, (_, i) => storage.key(i)).filter(
      (key): key is string => !!key?.startsWith(CONVERSATION_PREFIX),
    );
  if (message.type === STORAGE_MESSAGES.request) {
    const entries: Record<string, string> = {};
    for (const key of ours()) entries[key] = storage.getItem(key) ?? '';
    reply({ type: STORAGE_MESSAGES.snapshot, entries });
  } else if (message.type === STORAGE_MESSAGES.remove) storage.removeItem(message.key);
  else if (message.type === STORAGE_MESSAGES.set) {
    try {
      storage.setItem(message.key, message.value);
    } catch {
      // Full: drop expired conversations (spec §9), then try once more.
      for (const key of ours()) {
        let expiresAt: unknown;
        try {
          expiresAt = (JSON.parse(storage.getItem(key) ?? 'null') as { expiresAt?: unknown } | null)?.expiresAt;
        } catch {
          expiresAt = null;
        }
        if (typeof expiresAt !== 'number' || expiresAt <= Date.now()) storage.removeItem(key);
      }
      storage.setItem(message.key, message.value);
    }
  }
}

function language(options: WidgetOptions, doc: Document): 'en' | 'he' {
  return options.language ?? (/^he\b/i.test(doc.documentElement.lang) ? 'he' : 'en');
}

/**
 * Mounts the widget described by a `<script data-share-token=…>` element. Returns null (with a console
 * hint for the site owner) when the snippet has no share token.
 */
export function mountWidget(script: HTMLScriptElement, win: Window = window): WidgetHandle | null {
  const doc = win.document;
  const options = parseWidgetOptions((name) => script.getAttribute(name), win.location.href);
  if (!options.shareToken) {
    console.warn('[Kesher widget] the script tag needs a data-share-token attribute');
    return null;
  }
  const origin = new URL(script.src || win.location.href, win.location.href).origin;
  const texts = TEXTS[language(options, doc)];
  const saved = storedPosition(win, options.shareToken);
  const settings = saved ? { ...options, customPosition: true, positionX: saved.x, positionY: saved.y } : options;

  const host = doc.createElement('kesher-widget');
  host.setAttribute(
    'style',
    'all:initial!important;position:fixed!important;top:0!important;left:0!important;width:0!important;height:0!important;z-index:2147483000!important',
  );
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = `<style>${STYLE}</style>`;
  host.style.setProperty('--kw-button', settings.buttonColor);
  host.style.setProperty('--kw-bg', settings.backgroundColor);
  host.style.setProperty('--kw-text', settings.textColor);

  const button = doc.createElement('button');
  button.type = 'button';
  button.className = 'b';
  button.setAttribute('aria-label', texts.open);
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', 'kesher-panel');
  button.dataset.typing = 'false';
  const size = sizePx(settings.buttonSize);
  button.style.width = button.style.height = `${size}px`;
  if (settings.avatarUrl) {
    const img = doc.createElement('img');
    img.alt = '';
    img.src = settings.avatarUrl;
    img.addEventListener('error', () => {
      img.remove();
      button.innerHTML = CHAT_ICON;
    });
    button.append(img);
  } else button.innerHTML = CHAT_ICON;

  const panel = doc.createElement('div');
  panel.id = 'kesher-panel';
  panel.className = 'p';
  panel.hidden = true;
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-label', texts.title);
  const bar = doc.createElement('div');
  bar.className = 't';
  bar.dir = language(options, doc) === 'he' ? 'rtl' : 'ltr';
  const title = doc.createElement('span');
  title.textContent = texts.title;
  const closeButton = doc.createElement('button');
  closeButton.type = 'button';
  closeButton.className = 'x';
  closeButton.setAttribute('aria-label', texts.close);
  closeButton.textContent = '×';
  bar.append(title, closeButton);
  panel.append(bar);
  root.append(button, panel);

  let frame: HTMLIFrameElement | null = null;
  let isOpen = false;
  let place = { x: settings.positionX, y: settings.positionY, custom: settings.customPosition };
  const viewport = () => ({
    width: doc.documentElement.clientWidth || win.innerWidth,
    height: doc.documentElement.clientHeight || win.innerHeight,
  });
  const currentBox = (): Box =>
    buttonBox({ ...settings, customPosition: place.custom, positionX: place.x, positionY: place.y }, viewport());

  const layout = guard(() => {
    const box = currentBox();
    button.style.left = `${box.left}px`;
    button.style.top = `${box.top}px`;
    const panelAt = panelBox(box, viewport(), PANEL_SIZE);
    Object.assign(panel.style, {
      left: `${panelAt.left}px`,
      top: `${panelAt.top}px`,
      width: `${panelAt.width}px`,
      height: `${panelAt.height}px`,
    });
  });

  const open = guard(() => {
    if (isOpen) return;
    if (!frame) {
      frame = doc.createElement('iframe');
      frame.title = texts.title;
      frame.src = embedUrl(origin, options.shareToken, options.sessionToken);
      frame.setAttribute('allow', 'clipboard-write');
      panel.append(frame);
    }
    isOpen = true;
    panel.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    button.setAttribute('aria-label', texts.minimize);
    layout();
    frame.focus();
  });

  const close = guard(() => {
    if (!isOpen) return;
    isOpen = false;
    panel.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    button.setAttribute('aria-label', texts.open);
    button.focus();
  });

  // Drag to move; a press that does not travel is a click and toggles the panel.
  let press: { id: number; x: number; y: number; left: number; top: number; moved: boolean } | null = null;
  const onDown = guard((event: PointerEvent) => {
    if (event.button !== 0) return;
    const box = currentBox();
    press = { id: event.pointerId, x: event.clientX, y: event.clientY, left: box.left, top: box.top, moved: false };
    button.setPointerCapture?.(event.pointerId);
  });
  const onMove = guard((event: PointerEvent) => {
    if (!press || event.pointerId !== press.id) return;
    const dx = event.clientX - press.x;
    const dy = event.clientY - press.y;
    if (!press.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return;
    press.moved = true;
    button.classList.add('drag');
    const at = clampInto(press.left + dx, press.top + dy, { width: size, height: size }, viewport());
    place = { x: at.left, y: at.top, custom: true };
    layout();
  });
  const onUp = guard((event: PointerEvent) => {
    if (!press || event.pointerId !== press.id) return;
    const dragged = press.moved;
    press = null;
    if (dragged) {
      button.classList.remove('drag');
      storePosition(win, options.shareToken, { x: place.x, y: place.y });
    } else if (isOpen) close();
    else open();
  });
  const onClick = guard((event: MouseEvent) => {
    // Pointer presses are handled above; a keyboard "click" (Enter/Space) has detail 0.
    if (event.detail !== 0) return;
    if (isOpen) close();
    else open();
  });
  const onKey = guard((event: KeyboardEvent) => {
    if (event.key === 'Escape' && isOpen) close();
  });
  const onMessage = guard((event: MessageEvent) => {
    if (event.origin !== origin || !frame || event.source !== frame.contentWindow) return;
    const stored = readStorageMessage(event.data);
    if (stored) {
      const target = frame.contentWindow;
      answerStorage(win, stored, (reply) => target?.postMessage(reply, origin));
      return;
    }
    const message = readEmbedMessage(event.data);
    if (!message) return;
    if (message.type === EMBED_MESSAGES.typing) {
      button.classList.toggle('typing', message.isTyping);
      button.dataset.typing = String(message.isTyping);
    } else if (message.type === EMBED_MESSAGES.navigate) win.location.assign(message.url);
    else close();
  });

  button.addEventListener('pointerdown', onDown);
  button.addEventListener('pointermove', onMove);
  button.addEventListener('pointerup', onUp);
  button.addEventListener('pointercancel', () => {
    if (press?.moved) button.classList.remove('drag');
    press = null;
  });
  button.addEventListener('click', onClick);
  closeButton.addEventListener('click', close);
  doc.addEventListener('keydown', onKey, true);
  win.addEventListener('message', onMessage);
  win.addEventListener('resize', layout);

  doc.body.append(host);
  layout();

  return {
    open,
    close,
    get isOpen() {
      return isOpen;
    },
    button,
    destroy: guard(() => {
      doc.removeEventListener('keydown', onKey, true);
      win.removeEventListener('message', onMessage);
      win.removeEventListener('resize', layout);
      host.remove();
    }),
  };
}

/** The `<script>` that loaded widget.js: the running one, or (loaded late) the first tag with a share token. */
export function findScript(doc: Document): HTMLScriptElement | null {
  const current = doc.currentScript;
  if (current instanceof HTMLScriptElement && current.hasAttribute('data-share-token')) return current;
  return doc.querySelector<HTMLScriptElement>('script[data-share-token][src*="widget"]');
}

/** widget.js's whole job: find its tag and mount, once the page has a body. */
export function boot(win: Window = window) {
  try {
    const doc = win.document;
    const script = findScript(doc);
    if (!script || script.dataset.kesherMounted) return;
    script.dataset.kesherMounted = 'true';
    const start = guard(() => void mountWidget(script, win));
    if (doc.body) start();
    else doc.addEventListener('DOMContentLoaded', start, { once: true });
  } catch (error) {
    console.warn('[Kesher widget]', error);
  }
}
