type Waiter<V> = { resolve: (value: V | undefined) => void; reject: (err: unknown) => void };

/**
 * Items given within one turn of the event loop, handed to `flush` together once the turn is over (setImmediate), in
 * the order they were given. The base of batchPerTurn, and of the holds sent together (hold-batches.ts).
 */
export function perTurn<T>(flush: (items: T[]) => void): (item: T) => void {
  let waiting: T[] | null = null;
  return (item) => {
    if (!waiting) {
      const batch: T[] = (waiting = []);
      setImmediate(() => {
        waiting = null;
        flush(batch);
      });
    }
    waiting.push(item);
  };
}

/** Items by a key of theirs, each list in the items' order. */
export function groupedBy<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/**
 * Lookups asked for within one turn of the event loop share one call of `load`, made with each key once when the
 * turn is over (setImmediate); each lookup gets its key's value, or undefined when `load` found none. Every lookup
 * of a batch was asked before `load` ran, so no answer is older than its question: a change acknowledged before a
 * request arrived is seen by that request. If `load` fails, every lookup of its batch fails with it.
 */
export function batchPerTurn<K, V>(
  load: (keys: K[]) => Promise<Map<K, V>>,
): (key: K) => Promise<V | undefined> {
  const ask = perTurn<{ key: K } & Waiter<V>>(async (asked) => {
    const byKey = groupedBy(asked, (a) => a.key);
    try {
      const found = await load([...byKey.keys()]);
      for (const [key, waiters] of byKey) for (const w of waiters) w.resolve(found.get(key));
    } catch (err) {
      for (const waiters of byKey.values()) for (const w of waiters) w.reject(err);
    }
  });
  return (key) => new Promise<V | undefined>((resolve, reject) => ask({ key, resolve, reject }));
}
