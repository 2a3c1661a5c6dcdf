/**
 * Collects what is asked in one turn of the event loop and hands it over at once, after the turn's
 * microtasks (setImmediate): how the readers woken by one append share one read of the log, and the read
 * models' batches one transaction. Each call adds its item to the turn's collection.
 */
export function gatheredEachTurn<T>(flush: (items: T[]) => void): (item: T) => void {
  let gathering: T[] | undefined;
  return (item) => {
    if (!gathering) {
      const items: T[] = [];
      gathering = items;
      setImmediate(() => {
        gathering = undefined;
        flush(items);
      });
    }
    gathering.push(item);
  };
}
