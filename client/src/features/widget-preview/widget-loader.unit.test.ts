/**
 * widget.js (client/widget/) in jsdom: the snippet's options, where the button and panel go, and the
 * loader's behaviour on a page. (They live here because the client's test run covers src/ only.)
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { boot, mountWidget, type WidgetHandle } from '../../../widget/loader';
import {
  buttonBox,
  panelBox,
  parseWidgetOptions,
  WIDGET_DEFAULTS,
  type WidgetSettings,
  widgetAttributes,
} from '../../../widget/options';
import { embedCode } from './embed-code';

const KESHER = 'https://kesher.example';

function scriptTag(attributes: Record<string, string>, src = `${KESHER}/widget.js`) {
  const script = document.createElement('script');
  script.setAttribute('src', src);
  for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value);
  document.head.append(script);
  return script;
}

const read = (attributes: Record<string, string>) => (name: string) => attributes[name] ?? null;
const settings = (over: Partial<WidgetSettings> = {}): WidgetSettings => ({ ...WIDGET_DEFAULTS, ...over });

let mounted: WidgetHandle | null = null;
afterEach(() => {
  mounted?.destroy();
  mounted = null;
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

describe('widget options (spec part 2 §3 Widget settings)', () => {
  it('defaults: #2d3748 bottom-right 60px, #1e293b on #ffffff, offsets 20, no avatar', () => {
    expect(parseWidgetOptions(read({ 'data-share-token': 'tok' }))).toEqual({
      shareToken: 'tok',
      sessionToken: null,
      language: null,
      buttonColor: '#2d3748',
      buttonPosition: 'bottom-right',
      buttonSize: '60px',
      backgroundColor: '#1e293b',
      textColor: '#ffffff',
      customPosition: false,
      positionX: 20,
      positionY: 20,
      avatarUrl: null,
    });
  });

  it('reads every attribute and refuses malformed values (back to the defaults)', () => {
    const good = parseWidgetOptions(
      read({
        'data-share-token': ' tok ',
        'data-button-color': '#ff0000',
        'data-button-position': 'top-left',
        'data-button-size': '70',
        'data-background-color': '#000',
        'data-text-color': '#fafafa',
        'data-custom-position': 'true',
        'data-position-x': '120',
        'data-position-y': '45.6',
        'data-avatar-url': '/avatars/a.png',
        'data-language': 'HE',
        'data-session-token': 's'.repeat(20),
      }),
      'https://shop.example/page',
    );
    expect(good).toMatchObject({
      shareToken: 'tok',
      buttonColor: '#ff0000',
      buttonPosition: 'top-left',
      buttonSize: '70px',
      backgroundColor: '#000',
      textColor: '#fafafa',
      customPosition: true,
      positionX: 120,
      positionY: 46,
      avatarUrl: 'https://shop.example/avatars/a.png',
      language: 'he',
      sessionToken: 's'.repeat(20),
    });
    const bad = parseWidgetOptions(
      read({
        'data-share-token': 'tok',
        'data-button-color': 'red;background:url(x)',
        'data-button-position': 'middle',
        'data-button-size': '65px',
        'data-position-x': '-5',
        'data-position-y': 'abc',
        'data-avatar-url': 'javascript:alert(1)',
      }),
    );
    expect(bad).toMatchObject({
      buttonColor: '#2d3748',
      buttonPosition: 'bottom-right',
      buttonSize: '60px',
      positionX: 0,
      positionY: 20,
      avatarUrl: null,
    });
  });

  it('places the button at its corner, 20 px in, or where it was dragged (always inside)', () => {
    const area = { width: 1000, height: 800 };
    expect(buttonBox(settings(), area)).toEqual({ left: 920, top: 720, width: 60, height: 60 });
    expect(buttonBox(settings({ buttonPosition: 'bottom-left' }), area)).toMatchObject({ left: 20, top: 720 });
    expect(buttonBox(settings({ buttonPosition: 'top-right', buttonSize: '50px' }), area)).toMatchObject({
      left: 930,
      top: 20,
      width: 50,
    });
    expect(
      buttonBox(settings({ buttonPosition: 'top-left', buttonSize: '70px', positionX: 5, positionY: 40 }), area),
    ).toMatchObject({ left: 5, top: 40, width: 70 });
    expect(buttonBox(settings({ customPosition: true, positionX: 300, positionY: 200 }), area)).toMatchObject({
      left: 300,
      top: 200,
    });
    expect(
      buttonBox(settings({ customPosition: true, positionX: 5000, positionY: 5000 }), { width: 375, height: 667 }),
    ).toMatchObject({ left: 315, top: 607 });
  });

  it('opens the panel above a low button and below a high one, lined up with its outer edge, inside the window', () => {
    const area = { width: 1000, height: 800 };
    const low = buttonBox(settings(), area);
    expect(panelBox(low, area, { width: 380, height: 600 })).toEqual({ left: 600, top: 108, width: 380, height: 600 });
    const high = buttonBox(settings({ buttonPosition: 'top-left' }), area);
    expect(panelBox(high, area, { width: 380, height: 600 })).toEqual({ left: 20, top: 92, width: 380, height: 600 });
    const phone = { width: 320, height: 500 };
    const box = panelBox(buttonBox(settings(), phone), phone, { width: 380, height: 600 });
    expect(box).toEqual({ left: 8, top: 8, width: 304, height: 484 });
  });

  it('writes the snippet with the same attribute names it reads back', () => {
    const chosen = settings({
      buttonColor: '#112233',
      buttonPosition: 'top-right',
      buttonSize: '50px',
      customPosition: true,
      positionX: 77,
      positionY: 88,
      avatarUrl: 'https://cdn.example/a"b.png',
    });
    const code = embedCode(KESHER, 'tok_1', chosen);
    expect(code).toMatch(/^<script src="https:\/\/kesher\.example\/widget\.js"/);
    expect(code).toContain('data-share-token="tok_1"');
    expect(code).toContain('data-avatar-url="https://cdn.example/a&quot;b.png"');
    expect(code).toMatch(/async><\/script>$/);
    const attributes = Object.fromEntries(widgetAttributes('tok_1', chosen));
    const back = parseWidgetOptions(read(attributes));
    expect(back).toMatchObject({ ...chosen, avatarUrl: 'https://cdn.example/a%22b.png' });
    // Defaults stay short: no custom position attributes for a preset corner.
    expect(Object.keys(Object.fromEntries(widgetAttributes('t', WIDGET_DEFAULTS)))).not.toContain('data-position-x');
  });
});

describe('widget.js on a page', () => {
  const shadow = () => document.querySelector('kesher-widget')!.shadowRoot!;

  it('draws an accessible button in a shadow root, at its corner', () => {
    mounted = mountWidget(
      scriptTag({
        'data-share-token': 'tok',
        'data-button-position': 'bottom-left',
        'data-button-size': '50px',
        'data-button-color': '#123456',
      }),
    );
    const button = shadow().querySelector('button')!;
    expect(button).toBe(mounted!.button);
    expect(button.getAttribute('aria-label')).toBe('Open chat');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(button.style.width).toBe('50px');
    expect(button.style.left).toBe('20px');
    const host = document.querySelector<HTMLElement>('kesher-widget')!;
    expect(host.style.getPropertyValue('all')).toBe('initial');
    expect(host.style.getPropertyPriority('all')).toBe('important');
    expect((document.querySelector('kesher-widget') as HTMLElement).style.getPropertyValue('--kw-button')).toBe(
      '#123456',
    );
    // Host CSS cannot reach into the shadow root.
    expect(document.querySelectorAll('button')).toHaveLength(0);
  });

  it('opens the embed page of its own origin in a framed panel, lazily, and closes with Escape', () => {
    mounted = mountWidget(scriptTag({ 'data-share-token': 'a b' }));
    expect(shadow().querySelector('iframe')).toBeNull();
    mounted!.button.click(); // keyboard-style click (detail 0)
    const frame = shadow().querySelector('iframe')!;
    expect(frame.getAttribute('src')).toBe(`${KESHER}/embed/a%20b`);
    expect(frame.title).toBe('Chat');
    expect(mounted!.isOpen).toBe(true);
    expect(mounted!.button.getAttribute('aria-expanded')).toBe('true');
    expect(shadow().querySelector<HTMLElement>('[role="dialog"]')!.hidden).toBe(false);
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(mounted!.isOpen).toBe(false);
    expect(shadow().querySelector<HTMLElement>('[role="dialog"]')!.hidden).toBe(true);
    mounted!.open();
    expect(shadow().querySelectorAll('iframe')).toHaveLength(1); // the conversation's frame is kept
  });

  it('passes an owner test session token to the embed page', () => {
    mounted = mountWidget(scriptTag({ 'data-share-token': 'tok', 'data-session-token': 'x'.repeat(20) }));
    mounted!.open();
    expect(shadow().querySelector('iframe')!.getAttribute('src')).toBe(
      `${KESHER}/embed/tok?sessionToken=${'x'.repeat(20)}`,
    );
  });

  it('animates on ASSISTANT_TYPING and navigates on NAVIGATE_TO_URL — only from its own frame on Kesher origin, only http(s)', () => {
    const assign = vi.fn();
    const fakeWindow = new Proxy(window, {
      get(target, key) {
        if (key === 'location') return { href: 'https://shop.example/', assign };
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    mounted = mountWidget(scriptTag({ 'data-share-token': 'tok' }), fakeWindow);
    mounted!.open();
    const frame = shadow().querySelector('iframe')!;
    const frameWindow = { postMessage: vi.fn() }; // jsdom gives frames in a shadow root no window of their own
    Object.defineProperty(frame, 'contentWindow', { value: frameWindow });
    const send = (data: unknown, origin = KESHER, source: unknown = frameWindow) =>
      window.dispatchEvent(Object.assign(new Event('message'), { data, origin, source }));

    send({ type: 'ASSISTANT_TYPING', isTyping: true }, 'https://evil.example');
    expect(mounted!.button.classList.contains('typing')).toBe(false);
    send({ type: 'ASSISTANT_TYPING', isTyping: true }, KESHER, window);
    send({ type: 'ASSISTANT_TYPING', isTyping: true }, KESHER, null);
    expect(mounted!.button.classList.contains('typing')).toBe(false);
    send({ type: 'ASSISTANT_TYPING', isTyping: true });
    expect(mounted!.button.classList.contains('typing')).toBe(true);
    expect(mounted!.button.dataset.typing).toBe('true');
    send({ type: 'ASSISTANT_TYPING', isTyping: false });
    expect(mounted!.button.classList.contains('typing')).toBe(false);

    send({ type: 'NAVIGATE_TO_URL', url: 'javascript:alert(1)' });
    send({ type: 'NAVIGATE_TO_URL', url: 'https://shop.example/pricing' }, 'https://evil.example');
    expect(assign).not.toHaveBeenCalled();
    send({ type: 'NAVIGATE_TO_URL', url: 'https://shop.example/pricing' });
    expect(assign).toHaveBeenCalledWith('https://shop.example/pricing');

    send({ type: 'CLOSE_CHAT' });
    expect(mounted!.isOpen).toBe(false);
  });

  it("keeps the frame's stored conversations in the page when the frame's own storage is blocked", () => {
    mounted = mountWidget(scriptTag({ 'data-share-token': 'tok' }));
    mounted!.open();
    const frame = shadow().querySelector('iframe')!;
    // jsdom gives frames in a shadow root no window of their own: stand one in.
    const frameWindow = { postMessage: vi.fn() };
    Object.defineProperty(frame, 'contentWindow', { value: frameWindow });
    const toFrame = frameWindow.postMessage;
    const send = (data: unknown, origin = KESHER) =>
      window.dispatchEvent(Object.assign(new Event('message'), { data, origin, source: frameWindow }));
    localStorage.setItem('kesher_embed_conversation_1', '{"expiresAt":1}');
    localStorage.setItem('firebaseToken', 'secret-of-the-page');

    send({ type: 'KESHER_STORAGE_REQUEST' });
    expect(toFrame).toHaveBeenCalledWith(
      { type: 'KESHER_STORAGE_SNAPSHOT', entries: { kesher_embed_conversation_1: '{"expiresAt":1}' } },
      KESHER,
    );
    send({ type: 'KESHER_STORAGE_SET', key: 'kesher_embed_conversation_2', value: '{"a":1}' });
    expect(localStorage.getItem('kesher_embed_conversation_2')).toBe('{"a":1}');
    send({ type: 'KESHER_STORAGE_SET', key: 'firebaseToken', value: 'overwritten' });
    expect(localStorage.getItem('firebaseToken')).toBe('secret-of-the-page');
    send({ type: 'KESHER_STORAGE_SET', key: 'kesher_embed_conversation_3', value: 'x' }, 'https://evil.example');
    expect(localStorage.getItem('kesher_embed_conversation_3')).toBeNull();
    send({ type: 'KESHER_STORAGE_REMOVE', key: 'kesher_embed_conversation_2' });
    expect(localStorage.getItem('kesher_embed_conversation_2')).toBeNull();
  });

  it('speaks Hebrew on Hebrew pages', () => {
    document.documentElement.lang = 'he';
    try {
      mounted = mountWidget(scriptTag({ 'data-share-token': 'tok' }));
      expect(mounted!.button.getAttribute('aria-label')).toBe('פתיחת הצ׳אט');
    } finally {
      document.documentElement.lang = '';
    }
  });

  it('restores a position the visitor dragged to', () => {
    localStorage.setItem('kesher-widget-position:tok', JSON.stringify({ x: 100, y: 150 }));
    mounted = mountWidget(scriptTag({ 'data-share-token': 'tok' }));
    expect(mounted!.button.style.left).toBe('100px');
    expect(mounted!.button.style.top).toBe('150px');
  });

  it('does nothing (and throws nothing) without a share token, and mounts once from boot()', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(mountWidget(scriptTag({}))).toBeNull();
    expect(warn).toHaveBeenCalled();
    document.head.innerHTML = '';

    scriptTag({ 'data-share-token': 'tok' });
    boot();
    boot();
    expect(document.querySelectorAll('kesher-widget')).toHaveLength(1);
    document.querySelector('kesher-widget')!.remove();
  });
});
