import type { RequestHandler, Response } from 'express';
import { MemoryStore, rateLimit, type Store } from 'express-rate-limit';
import { AppError } from '../errors.js';
import { renderError } from '../http/error-handler.js';

const WINDOW_MS = 60_000;

const keyOf = (accountId: string) => `account:${accountId}`;

/**
 * API_RATE_LIMIT_PER_MINUTE per account: every API key of the account and every web session of its user spend one
 * budget, over HTTP (each request) and over the subscription socket (each operation). Kept in `store` (Redis for
 * replicas and WEB_CONCURRENCY workers); none: this process's memory.
 */
export class RequestBudget {
  /** Counts each authenticated request; unauthenticated ones pass (each route decides whether it needs an account). */
  readonly middleware: RequestHandler;
  private readonly store: Store;

  constructor(
    private readonly perMinute: number,
    store: Store = new MemoryStore(),
  ) {
    this.store = store;
    // rateLimit initialises the store (its window), which spend() then shares.
    this.middleware = rateLimit({
      windowMs: WINDOW_MS,
      limit: perMinute,
      store,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      skip: (_req, res) => accountIdOf(res) === undefined,
      keyGenerator: (_req, res) => keyOf(accountIdOf(res)!),
      handler: (_req, res) => renderError(this.refusal(WINDOW_MS / 1000), res),
    });
  }

  /** Spends one request of the account's budget (a socket's operation): the refusal once it is spent, else undefined. */
  async spend(accountId: string): Promise<AppError | undefined> {
    const { totalHits, resetTime } = await this.store.increment(keyOf(accountId));
    if (totalHits <= this.perMinute) return undefined;
    const seconds = resetTime ? Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : WINDOW_MS / 1000;
    return this.refusal(seconds);
  }

  private refusal(retryAfterSeconds: number): AppError {
    return new AppError(
      'rate_limited',
      `Too many requests for this account: at most ${this.perMinute} a minute across its API keys, sessions and sockets`,
      { retryAfterSeconds },
    );
  }
}

const accountIdOf = (res: Response): string | undefined => (res.locals.account as { id: string } | undefined)?.id;
