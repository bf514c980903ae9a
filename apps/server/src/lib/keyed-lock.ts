/**
 * Runs tasks one after another per key, in the order they arrived; different keys run side by side. In
 * memory, so it orders the work of one process only.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    // A tail never rejects: a failed task does not stop the ones after it.
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    // The last task of a key takes its entry with it, so the map holds only keys with work in flight.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
