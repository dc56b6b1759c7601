/**
 * An async iterator fed by a callback subscription: `subscribe(push)` starts delivery and returns the unsubscribe,
 * which runs when the consumer stops (graphql-ws calls return() when a client completes or disconnects).
 */
export function eventStream<T>(subscribe: (push: (value: T) => void) => () => void): AsyncIterableIterator<T> {
  const queued: T[] = [];
  let waiting: ((result: IteratorResult<T>) => void) | undefined;
  let done = false;
  const unsubscribe = subscribe((value) => {
    if (done) return;
    if (waiting) {
      waiting({ value, done: false });
      waiting = undefined;
    } else queued.push(value);
  });
  const finish = async (): Promise<IteratorResult<T>> => {
    if (!done) {
      done = true;
      unsubscribe();
      waiting?.({ value: undefined, done: true });
      waiting = undefined;
    }
    return { value: undefined, done: true };
  };
  return {
    next: () => {
      if (queued.length > 0) return Promise.resolve({ value: queued.shift() as T, done: false });
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => (waiting = resolve));
    },
    return: finish,
    throw: async (error: unknown) => {
      await finish();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
