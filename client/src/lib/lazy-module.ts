import { useEffect, useSyncExternalStore } from 'react';

/**
 * Code loaded when it is first shown, without React's `lazy` and `Suspense`: the visitor pages run on
 * plain Preact (src/visitor/react-on-preact.ts), which has neither, and a component that waits for a
 * module with a hook renders the same on both. One download per module, shared by every component
 * that shows a part of it and by whoever fetches it ahead of time; a failed download is tried again.
 */
export interface LazyModule<T> {
  /** Starts the download (once) and resolves with the module. */
  load(): Promise<T>;
  /** The module once loaded, else undefined. */
  current(): T | undefined;
  subscribe(listener: () => void): () => void;
}

export function lazyModule<T>(importer: () => Promise<T>): LazyModule<T> {
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  const listeners = new Set<() => void>();
  return {
    load: () =>
      (loading ??= importer().then(
        (module) => {
          loaded = module;
          for (const listener of listeners) listener();
          return module;
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      )),
    current: () => loaded,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A module that is there already (bundled with its user), behind the same interface. */
export const loadedModule = <T>(module: T): LazyModule<T> => ({
  load: () => Promise.resolve(module),
  current: () => module,
  subscribe: () => () => {},
});

const notLoaded = () => undefined;
const noChanges = () => () => {};

/**
 * The module, once loaded; undefined while it is not wanted (null) or still on its way. The download
 * starts when the module is first wanted, so code nobody is shown is never fetched.
 */
export function useLazyModule<T>(module: LazyModule<T> | null): T | undefined {
  const loaded = useSyncExternalStore(
    module?.subscribe ?? noChanges,
    module?.current ?? notLoaded,
    module?.current ?? notLoaded,
  );
  useEffect(() => {
    if (module && !loaded) module.load().catch(() => {});
  }, [module, loaded]);
  return loaded;
}
