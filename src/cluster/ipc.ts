import cluster, { type Worker } from 'node:cluster';

/**
 * Messages between the cluster's primary and its workers over Node's own IPC channel (process.send): a worker asks
 * and awaits the answer, the primary answers and can tell every worker. Everything sent is JSON.
 */
interface Envelope {
  basewatch: true;
  kind: string;
  /** Set on questions and their answers. */
  id?: number;
  payload?: unknown;
  error?: string;
  /** Set on the primary's questions to a worker and their answers (their ids are the primary's own). */
  fromPrimary?: true;
}

const isEnvelope = (message: unknown): message is Envelope =>
  typeof message === 'object' && message !== null && (message as Envelope).basewatch === true;

/** A worker's side. */
export class WorkerChannel {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private readonly listeners = new Map<string, (payload: unknown) => void>();
  private readonly answerers = new Map<string, () => unknown>();

  constructor() {
    process.on('message', (message: unknown) => {
      if (!isEnvelope(message)) return;
      if (message.fromPrimary && message.id !== undefined) {
        const answerer = this.answerers.get(message.kind);
        const id = message.id;
        void Promise.resolve()
          .then(() => answerer?.())
          .then(
            (payload) => this.send({ basewatch: true, kind: message.kind, id, fromPrimary: true, payload }),
            (error: unknown) => this.send({ basewatch: true, kind: message.kind, id, fromPrimary: true, error: String(error) }),
          );
        return;
      }
      if (message.id !== undefined && this.waiting.has(message.id)) {
        const pending = this.waiting.get(message.id)!;
        this.waiting.delete(message.id);
        if (message.error) pending.reject(new Error(message.error));
        else pending.resolve(message.payload);
        return;
      }
      this.listeners.get(message.kind)?.(message.payload);
    });
  }

  ask<T>(kind: string, payload: unknown): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.send({ basewatch: true, kind, id, payload });
    });
  }

  tell(kind: string, payload: unknown): void {
    this.send({ basewatch: true, kind, payload });
  }

  on(kind: string, listener: (payload: unknown) => void): void {
    this.listeners.set(kind, listener);
  }

  /** Answers the primary's questions of this kind (PrimaryChannel.askAll). */
  answer(kind: string, answerer: () => unknown): void {
    this.answerers.set(kind, answerer);
  }

  private send(envelope: Envelope): void {
    // A worker whose primary is gone is about to be stopped; what it says meanwhile is lost.
    if (process.connected) process.send!(envelope);
  }
}

type Answerer = (payload: unknown, worker: Worker) => unknown;

/** The primary's side: answers questions of every worker, current and future, and tells them all. */
export class PrimaryChannel {
  private readonly answerers = new Map<string, Answerer>();
  private nextId = 1;
  private readonly waiting = new Map<number, (payload: unknown) => void>();

  constructor() {
    cluster.on('message', (worker, message: unknown) => {
      if (!isEnvelope(message)) return;
      if (message.fromPrimary) {
        if (message.id !== undefined) this.waiting.get(message.id)?.(message.error ? undefined : message.payload);
        return;
      }
      const answerer = this.answerers.get(message.kind);
      if (!answerer) return;
      const reply = (answer: Partial<Envelope>) => {
        if (worker.isConnected()) worker.send({ basewatch: true, kind: message.kind, id: message.id, ...answer } satisfies Envelope);
      };
      Promise.resolve()
        .then(() => answerer(message.payload, worker))
        .then(
          (payload) => message.id !== undefined && reply({ payload }),
          (error: unknown) => message.id !== undefined && reply({ error: error instanceof Error ? error.message : String(error) }),
        );
    });
  }

  answer(kind: string, answerer: Answerer): void {
    this.answerers.set(kind, answerer);
  }

  /** Asks every live worker; a worker that does not answer within `timeoutMs` is left out. */
  async askAll(kind: string, timeoutMs: number): Promise<unknown[]> {
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker?.isConnected() === true);
    const answers = await Promise.all(
      workers.map(
        (worker) =>
          new Promise<unknown>((resolve) => {
            const id = this.nextId++;
            const timer = setTimeout(() => done(undefined), timeoutMs);
            const done = (payload: unknown) => {
              clearTimeout(timer);
              this.waiting.delete(id);
              resolve(payload);
            };
            this.waiting.set(id, done);
            worker.send({ basewatch: true, kind, id, fromPrimary: true } satisfies Envelope);
          }),
      ),
    );
    return answers.filter((answer) => answer !== undefined);
  }

  tellAll(kind: string, payload: unknown): void {
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker?.isConnected()) worker.send({ basewatch: true, kind, payload } satisfies Envelope);
    }
  }
}
