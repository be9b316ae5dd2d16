type Waiter<V> = { resolve: (value: V | undefined) => void; reject: (err: unknown) => void };

/**
 * Lookups asked for within one turn of the event loop share one call of `load`, made with each key once when the
 * turn is over (setImmediate); each lookup gets its key's value, or undefined when `load` found none. Every lookup
 * of a batch was asked before `load` ran, so no answer is older than its question: a change acknowledged before a
 * request arrived is seen by that request. If `load` fails, every lookup of its batch fails with it.
 */
export function batchPerTurn<K, V>(
  load: (keys: K[]) => Promise<Map<K, V>>,
): (key: K) => Promise<V | undefined> {
  let waiting: Map<K, Waiter<V>[]> | null = null;

  const flush = async () => {
    const batch = waiting!;
    waiting = null;
    try {
      const found = await load([...batch.keys()]);
      for (const [key, waiters] of batch) for (const w of waiters) w.resolve(found.get(key));
    } catch (err) {
      for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
    }
  };

  return (key) =>
    new Promise<V | undefined>((resolve, reject) => {
      if (!waiting) {
        waiting = new Map();
        setImmediate(() => void flush());
      }
      const waiters = waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
    });
}
