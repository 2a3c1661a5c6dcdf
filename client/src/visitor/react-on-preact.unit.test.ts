import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createElement as h, memo, useSyncExternalStore } from './react-on-preact';

// The visitor build's `react` (plain Preact): the React DOM behaviours the shared components rely on.
// Written without JSX, which this config compiles for React.
const root = document.createElement('div');
document.body.append(root);
afterEach(() => render(null, root));

describe('react-on-preact', () => {
  it("fires a text field's onChange on every keystroke, a check box's on its change", () => {
    const typed = vi.fn();
    const ticked = vi.fn();
    render(
      h('div', null, h('textarea', { value: '', onChange: typed }), h('input', { type: 'checkbox', onChange: ticked })),
      root,
    );
    root.querySelector('textarea')!.dispatchEvent(new Event('input', { bubbles: true }));
    root.querySelector('input')!.dispatchEvent(new Event('change', { bubbles: true }));
    expect(typed).toHaveBeenCalledTimes(1);
    expect(ticked).toHaveBeenCalledTimes(1);
  });

  it("gives SVG React's camelCase attributes under their SVG names", () => {
    render(h('svg', { strokeWidth: '2', strokeLinecap: 'round', viewBox: '0 0 24 24' }), root);
    const svg = root.querySelector('svg')!;
    expect(svg.getAttribute('stroke-width')).toBe('2');
    expect(svg.getAttribute('stroke-linecap')).toBe('round');
    expect(svg.getAttribute('viewBox')).toBe('0 0 24 24');
  });

  it('hands handlers an event whose nativeEvent is itself, and lets onFocus bubble', () => {
    const keys: boolean[] = [];
    const focused = vi.fn();
    render(
      h(
        'div',
        { onFocus: focused },
        h('textarea', { onKeyDown: (e: KeyboardEvent & { nativeEvent: Event }) => keys.push(e.nativeEvent === e) }),
      ),
      root,
    );
    const box = root.querySelector('textarea')!;
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    box.focus();
    expect(keys).toEqual([true]);
    expect(focused).toHaveBeenCalledTimes(1);
  });

  it('memo renders again only when a prop changed', () => {
    const drawn = vi.fn();
    const Item = memo(({ text }: { text: string }) => {
      drawn(text);
      return h('p', null, text);
    });
    const shown = { text: 'a' };
    render(h(Item, shown), root);
    render(h(Item, { ...shown }), root);
    render(h(Item, { text: 'b' }), root);
    expect(drawn.mock.calls).toEqual([['a'], ['b']]);
    expect(root.textContent).toBe('b');
  });

  it('useSyncExternalStore follows the store', () => {
    let value = 1;
    const listeners = new Set<() => void>();
    const subscribe = (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    };
    const snapshot = () => value;
    function Show() {
      return h('span', null, String(useSyncExternalStore(subscribe, snapshot)));
    }
    act(() => render(h(Show, null), root));
    expect(root.textContent).toBe('1');
    act(() => {
      value = 2;
      listeners.forEach((listener) => listener());
    });
    expect(root.textContent).toBe('2');
    act(() => render(null, root));
    expect(listeners.size).toBe(0);
  });
});
