/**
 * The website widget's settings (spec part 2 §3 "Widget settings", §9 "Widget") and where they put the
 * floating button and its chat panel. Pure functions, no DOM: the loader (widget.js, on customers'
 * sites) and the owner's Widget Preview both use them, so the preview places the button exactly where
 * the pasted snippet will.
 */

export const BUTTON_POSITIONS = ['bottom-right', 'bottom-left', 'top-right', 'top-left'] as const;
export type ButtonPosition = (typeof BUTTON_POSITIONS)[number];

export const BUTTON_SIZES = ['50px', '60px', '70px'] as const;
export type ButtonSize = (typeof BUTTON_SIZES)[number];

export interface WidgetSettings {
  buttonColor: string;
  buttonPosition: ButtonPosition;
  buttonSize: ButtonSize;
  /** The chat panel's title bar. */
  backgroundColor: string;
  /** Text and icons on the title bar and the button. */
  textColor: string;
  /** When on, positionX/positionY are the button's distance from the left and top edges (a dragged button). */
  customPosition: boolean;
  /** Otherwise they are the offsets from the corner of `buttonPosition`. */
  positionX: number;
  positionY: number;
  avatarUrl: string | null;
}

export const DEFAULT_OFFSET = 20;

export const WIDGET_DEFAULTS: WidgetSettings = {
  buttonColor: '#2d3748',
  buttonPosition: 'bottom-right',
  buttonSize: '60px',
  backgroundColor: '#1e293b',
  textColor: '#ffffff',
  customPosition: false,
  positionX: DEFAULT_OFFSET,
  positionY: DEFAULT_OFFSET,
  avatarUrl: null,
};

/** What the snippet carries besides the looks: the share link's token and, for owners' tests only, a session. */
export interface WidgetOptions extends WidgetSettings {
  shareToken: string;
  sessionToken: string | null;
  language: 'en' | 'he' | null;
}

/** The snippet's attributes, one per setting (`data-button-color="#2d3748"` …). */
export const ATTRIBUTES = {
  shareToken: 'data-share-token',
  sessionToken: 'data-session-token',
  language: 'data-language',
  buttonColor: 'data-button-color',
  buttonPosition: 'data-button-position',
  buttonSize: 'data-button-size',
  backgroundColor: 'data-background-color',
  textColor: 'data-text-color',
  customPosition: 'data-custom-position',
  positionX: 'data-position-x',
  positionY: 'data-position-y',
  avatarUrl: 'data-avatar-url',
} as const;

// Only plain colours reach the style sheet, so an attribute can never smuggle in other CSS.
const COLOR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const MAX_COORDINATE = 10_000;

export const isColor = (value: string | null | undefined): value is string =>
  typeof value === 'string' && COLOR.test(value.trim());

/** An absolute http(s) address, or null: the only kind the widget loads as an image or navigates to. */
export function webUrl(value: unknown, base?: string): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  try {
    const url = new URL(value.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function coordinate(value: string | null): number {
  if (value === null || value.trim() === '') return DEFAULT_OFFSET;
  const number = Number.parseFloat(value);
  return Number.isFinite(number) ? Math.min(MAX_COORDINATE, Math.max(0, Math.round(number))) : DEFAULT_OFFSET;
}

function buttonSize(value: string | null): ButtonSize {
  const text = value?.trim() ?? '';
  const withUnit = /^\d+$/.test(text) ? `${text}px` : text;
  return (BUTTON_SIZES as readonly string[]).includes(withUnit) ? (withUnit as ButtonSize) : WIDGET_DEFAULTS.buttonSize;
}

/**
 * Reads the snippet's attributes (`read('data-button-color')`). Anything missing or malformed falls
 * back to the default, so a typo in a customer's page never breaks the widget.
 */
export function parseWidgetOptions(read: (attribute: string) => string | null, base?: string): WidgetOptions {
  const text = (key: keyof typeof ATTRIBUTES) => read(ATTRIBUTES[key])?.trim() ?? null;
  const color = (key: 'buttonColor' | 'backgroundColor' | 'textColor') => {
    const value = text(key);
    return isColor(value) ? value : WIDGET_DEFAULTS[key];
  };
  const position = text('buttonPosition');
  const language = text('language')?.toLowerCase() ?? null;
  return {
    shareToken: text('shareToken') ?? '',
    sessionToken: text('sessionToken') || null,
    language: language === 'he' || language === 'en' ? language : null,
    buttonColor: color('buttonColor'),
    buttonPosition: (BUTTON_POSITIONS as readonly string[]).includes(position ?? '')
      ? (position as ButtonPosition)
      : WIDGET_DEFAULTS.buttonPosition,
    buttonSize: buttonSize(text('buttonSize')),
    backgroundColor: color('backgroundColor'),
    textColor: color('textColor'),
    customPosition: text('customPosition') === 'true',
    positionX: coordinate(text('positionX')),
    positionY: coordinate(text('positionY')),
    avatarUrl: webUrl(text('avatarUrl'), base),
  };
}

/** The snippet's attributes for these settings: defaults are left out, so the snippet stays short. */
export function widgetAttributes(shareToken: string, settings: WidgetSettings): [string, string][] {
  const out: [string, string][] = [[ATTRIBUTES.shareToken, shareToken]];
  const add = (key: keyof WidgetSettings & keyof typeof ATTRIBUTES, value: string) =>
    out.push([ATTRIBUTES[key], value]);
  add('buttonColor', settings.buttonColor);
  add('buttonPosition', settings.buttonPosition);
  add('buttonSize', settings.buttonSize);
  add('backgroundColor', settings.backgroundColor);
  add('textColor', settings.textColor);
  if (settings.customPosition) add('customPosition', 'true');
  if (settings.customPosition || settings.positionX !== DEFAULT_OFFSET) add('positionX', String(settings.positionX));
  if (settings.customPosition || settings.positionY !== DEFAULT_OFFSET) add('positionY', String(settings.positionY));
  if (settings.avatarUrl) add('avatarUrl', settings.avatarUrl);
  return out;
}

export const sizePx = (size: ButtonSize) => Number.parseInt(size, 10);

export interface Area {
  width: number;
  height: number;
}

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Keeps a box of `size` inside the area, `margin` from every edge where it fits. */
export function clampInto(
  left: number,
  top: number,
  size: { width: number; height: number },
  area: Area,
  margin = 0,
): { left: number; top: number } {
  const clamp = (value: number, box: number, room: number) => Math.max(margin, Math.min(value, room - box - margin));
  return {
    left: Math.round(clamp(left, size.width, area.width)),
    top: Math.round(clamp(top, size.height, area.height)),
  };
}

/**
 * Where the button sits in an area (the browser window, or the preview frame): at its corner,
 * positionX/positionY in from the edges, or where it was dragged to. Always fully visible.
 */
export function buttonBox(settings: WidgetSettings, area: Area): Box {
  const size = sizePx(settings.buttonSize);
  const box = { width: size, height: size };
  if (settings.customPosition) return { ...clampInto(settings.positionX, settings.positionY, box, area), ...box };
  const [vertical, horizontal] = settings.buttonPosition.split('-') as ['top' | 'bottom', 'left' | 'right'];
  const left = horizontal === 'left' ? settings.positionX : area.width - size - settings.positionX;
  const top = vertical === 'top' ? settings.positionY : area.height - size - settings.positionY;
  return { ...clampInto(left, top, box, area), ...box };
}

export const PANEL_GAP = 12;
export const PANEL_MARGIN = 8;

/**
 * The chat panel next to the button: above it when the button is in the lower half, below otherwise;
 * lined up with the button's outer edge (the right edge for a button on the right). Kept inside the area.
 */
export function panelBox(button: Box, area: Area, panel: { width: number; height: number }): Box {
  const width = Math.min(panel.width, area.width - 2 * PANEL_MARGIN);
  const height = Math.min(panel.height, area.height - 2 * PANEL_MARGIN);
  const onRight = button.left + button.width / 2 > area.width / 2;
  const below = button.top + button.height / 2 < area.height / 2;
  const left = onRight ? button.left + button.width - width : button.left;
  const top = below ? button.top + button.height + PANEL_GAP : button.top - PANEL_GAP - height;
  return { ...clampInto(left, top, { width, height }, area, PANEL_MARGIN), width, height };
}

/** The embed page's address for a share token (and an owner's test session, if any). */
export function embedUrl(origin: string, shareToken: string, sessionToken?: string | null): string {
  const query = sessionToken ? `?sessionToken=${encodeURIComponent(sessionToken)}` : '';
  return `${origin}/embed/${encodeURIComponent(shareToken)}${query}`;
}

/** The messages the embed page posts to the window around it (spec part 2 §2). */
export const EMBED_MESSAGES = {
  typing: 'ASSISTANT_TYPING',
  navigate: 'NAVIGATE_TO_URL',
  /** Kesher's addition: Escape pressed inside the chat, so keyboard users can close the panel from there. */
  close: 'CLOSE_CHAT',
} as const;

export type EmbedMessage =
  | { type: typeof EMBED_MESSAGES.typing; isTyping: boolean }
  | { type: typeof EMBED_MESSAGES.navigate; url: string }
  | { type: typeof EMBED_MESSAGES.close };

/** Reads a posted message; anything that is not one of ours (other scripts post too) is null. */
export function readEmbedMessage(data: unknown): EmbedMessage | null {
  if (!data || typeof data !== 'object') return null;
  const message = data as Record<string, unknown>;
  if (message.type === EMBED_MESSAGES.typing && typeof message.isTyping === 'boolean')
    return { type: EMBED_MESSAGES.typing, isTyping: message.isTyping };
  if (message.type === EMBED_MESSAGES.navigate) {
    const url = webUrl(message.url);
    return url ? { type: EMBED_MESSAGES.navigate, url } : null;
  }
  if (message.type === EMBED_MESSAGES.close) return { type: EMBED_MESSAGES.close };
  return null;
}

/** The stored conversations' keys (the storage bridge to widget.js, storage-messages.ts, passes only these). */
export const CONVERSATION_PREFIX = 'kesher_embed_conversation_';
