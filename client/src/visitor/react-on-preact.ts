import { type Component, createElement, type FunctionComponent, options } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * What the visitor pages use of React, on plain Preact: vite.visitor.config.ts resolves `react` here,
 * so the pages inside customers' websites ship Preact and its hooks without preact/compat (a third of
 * the embed page's framework bytes). Only the part of React the visitor modules import is here; an
 * import of anything else fails the visitor build (a missing export), rather than shipping compat.
 *
 * Shared components are written for React DOM, so the few React DOM behaviours they rely on are kept
 * too (below): `onChange` of a text field fires on every keystroke, SVG takes React's camelCase
 * attributes, `onFocus`/`onBlur` bubble, and `event.nativeEvent` is the event itself.
 */
export {
  createContext,
  createElement,
  Fragment,
  Fragment as StrictMode,
  type ComponentType,
  type FunctionComponent,
} from 'preact';
export {
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from 'preact/hooks';

/** Re-renders when the store's snapshot changes (compared with Object.is, as React does). */
export function useSyncExternalStore<T>(subscribe: (onChange: () => void) => () => void, getSnapshot: () => T): T {
  const value = getSnapshot();
  const [, changed] = useState(0);
  useEffect(() => {
    const check = () => {
      if (!Object.is(value, getSnapshot())) changed((n) => n + 1);
    };
    // A change between this render and the subscription is not missed.
    check();
    return subscribe(check);
  }, [subscribe, getSnapshot, value]);
  return value;
}

const samePropsShallow = (a: object, b: object) => {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const key in x) if (!(key in y)) return false;
  for (const key in y) if (!Object.is(x[key], y[key])) return false;
  return true;
};

/** React's `memo`: re-renders only when a prop changed (shallowly). */
export function memo<P extends object>(render: FunctionComponent<P>): FunctionComponent<P> {
  function Memo(this: Component<P>, props: P) {
    this.shouldComponentUpdate = (next: P) => !samePropsShallow(this.props, next);
    return createElement(render, props);
  }
  return Memo;
}

// React DOM's names for Preact's DOM props. `textual` fields fire `input` on every keystroke, which is
// React's `onChange`; check boxes, radios and files keep `change`.
const SVG_CAMEL =
  /^(?:clip|color|fill|flood|font|letter|lighting|marker|pointer|shape|stop|stroke|text|transform|vector|word|writing)[A-Z]/;
const textual = (type: string, props: Record<string, unknown>) =>
  type === 'textarea' || (type === 'input' && !/^(?:checkbox|radio|file)$/.test(String(props.type)));

function reactDomProps(type: string, props: Record<string, unknown>) {
  for (const name of Object.keys(props)) {
    let renamed = name;
    if (name === 'onChange' && textual(type, props)) renamed = 'onInput' in props ? 'onInputCapture' : 'onInput';
    else if (name === 'onFocus') renamed = 'onfocusin';
    else if (name === 'onBlur') renamed = 'onfocusout';
    else if (name === 'onDoubleClick') renamed = 'ondblclick';
    else if (SVG_CAMEL.test(name)) renamed = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    if (renamed === name) continue;
    props[renamed] = props[name];
    delete props[name];
  }
}

const previousVnode = options.vnode;
options.vnode = (vnode) => {
  if (typeof vnode.type === 'string') reactDomProps(vnode.type, vnode.props as Record<string, unknown>);
  previousVnode?.(vnode);
};

const previousEvent = options.event;
options.event = (event) => {
  const e = previousEvent ? previousEvent(event) : event;
  (e as Event & { nativeEvent?: Event }).nativeEvent = e;
  return e;
};
