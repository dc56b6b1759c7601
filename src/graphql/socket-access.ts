import type { IncomingMessage } from 'node:http';
import { GraphQLError } from 'graphql';
import type { WebSocket } from 'ws';
import { parseAuthorizationHeader } from '../services/credentials/api-key.js';
import { API_KEY_CACHE_TTL_MS } from '../services/credentials/caller-cache.js';
import type { RequestBudget } from '../auth/request-budget.js';
import { readSessionCookie } from '../auth/session-cookie.js';
import { unauthorized, type AppError } from '../errors.js';
import type { AccountSummary } from '../services/account.service.js';
import type { Services } from '../services.js';

/** graphql-ws's own code for a refused credential (its clients know it); the web app does not reconnect after it. */
export const FORBIDDEN_CLOSE = 4403;
/** Past GRAPHQL_MAX_SOCKETS_PER_ACCOUNT; graphql-ws clients treat 4429 as final and do not retry in a loop. */
export const TOO_MANY_SOCKETS_CLOSE = 4429;

/** What a socket proved at connect: asked again before each of its operations and every API_KEY_CACHE_TTL_MS. */
type Credential = { kind: 'key'; key: string } | { kind: 'session'; token: string };

interface OpenSocket {
  credential: Credential;
  accountId: string;
}

interface Options {
  services: Pick<Services, 'accounts' | 'sessions'>;
  budget: RequestBudget;
  maxSocketsPerAccount: number;
  /** Whether this upgrade request may be authenticated by its session cookie (its Origin; socket-origin.ts). */
  cookieAllowed: (request: IncomingMessage) => boolean;
}

export type Admission = { account: AccountSummary } | { error: GraphQLError };

/**
 * Who may use a subscription socket, for as long as it is open. At connect: the API key in `connectionParams`, else
 * the session cookie (from an allowed Origin), and at most `maxSocketsPerAccount` sockets per account in this process.
 * Before every operation: the credential again (a revoked key or an ended session closes the socket with 4403 and
 * runs nothing) and one request of the account's budget. Between operations, a sweep every API_KEY_CACHE_TTL_MS
 * closes the sockets whose credential no longer authenticates, so a subscription does not outlive its key or session.
 */
export class SocketAccess {
  private readonly open = new Map<WebSocket, OpenSocket>();
  private readonly perAccount = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;
  private sweeping = false;

  constructor(private readonly options: Options) {
    this.sweeper = setInterval(() => void this.sweep(), API_KEY_CACHE_TTL_MS).unref();
  }

  /** connection_init: true when the socket may stay; false closes it with 4403 (or it was closed with 4429 here). */
  async connect(params: Readonly<Record<string, unknown>> | undefined, request: IncomingMessage, socket: WebSocket): Promise<boolean> {
    const credential = this.credentialOf(params, request);
    const account = credential && (await this.authenticate(credential));
    if (!credential || !account) return false;
    // It may have closed while the credential was looked up: then nothing would release its place.
    if (socket.readyState !== socket.OPEN) return false;
    const { maxSocketsPerAccount } = this.options;
    const held = this.perAccount.get(account.id) ?? 0;
    if (held >= maxSocketsPerAccount) {
      socket.close(
        TOO_MANY_SOCKETS_CLOSE,
        `Too many open sockets for this account: at most ${maxSocketsPerAccount} (GRAPHQL_MAX_SOCKETS_PER_ACCOUNT)`,
      );
      return false;
    }
    this.perAccount.set(account.id, held + 1);
    this.open.set(socket, { credential, accountId: account.id });
    return true;
  }

  /** A subscribe message: the account as it is now, or why this operation does not run. */
  async admit(socket: WebSocket): Promise<Admission> {
    const entry = this.open.get(socket);
    const account = entry && (await this.authenticate(entry.credential));
    if (!account) {
      socket.close(FORBIDDEN_CLOSE, 'Forbidden: the key was revoked or the session ended');
      return { error: asGraphqlError(unauthorized('The key was revoked or the session ended')) };
    }
    const refused = await this.options.budget.spend(account.id);
    return refused ? { error: asGraphqlError(refused) } : { account };
  }

  /** The socket closed: its place is free again. */
  release(socket: WebSocket): void {
    const entry = this.open.get(socket);
    if (!entry) return;
    this.open.delete(socket);
    const held = (this.perAccount.get(entry.accountId) ?? 1) - 1;
    if (held > 0) this.perAccount.set(entry.accountId, held);
    else this.perAccount.delete(entry.accountId);
  }

  stop(): void {
    clearInterval(this.sweeper);
  }

  private credentialOf(params: Readonly<Record<string, unknown>> | undefined, request: IncomingMessage): Credential | undefined {
    // A key given wins: a wrong one does not fall back to the cookie, as over HTTP.
    const given = keyParam(params);
    if (given !== undefined) {
      const key = parseAuthorizationHeader(given);
      return key ? { kind: 'key', key } : undefined;
    }
    const token = readSessionCookie(request);
    return token && this.options.cookieAllowed(request) ? { kind: 'session', token } : undefined;
  }

  private async authenticate(credential: Credential): Promise<AccountSummary | null> {
    const { accounts, sessions } = this.options.services;
    const caller = credential.kind === 'key' ? await accounts.authenticate(credential.key) : await sessions.authenticate(credential.token);
    return caller?.account ?? null;
  }

  /** Closes every socket whose credential no longer authenticates; each distinct credential is looked up once. */
  private async sweep(): Promise<void> {
    if (this.sweeping || this.open.size === 0) return;
    this.sweeping = true;
    try {
      const byCredential = new Map<string, WebSocket[]>();
      for (const [socket, { credential }] of this.open) {
        const id = credential.kind === 'key' ? `key:${credential.key}` : `session:${credential.token}`;
        byCredential.set(id, [...(byCredential.get(id) ?? []), socket]);
      }
      for (const sockets of byCredential.values()) {
        const entry = this.open.get(sockets[0]!);
        if (!entry || (await this.authenticate(entry.credential).catch(() => true))) continue;
        for (const socket of sockets) socket.close(FORBIDDEN_CLOSE, 'Forbidden: the key was revoked or the session ended');
      }
    } finally {
      this.sweeping = false;
    }
  }
}

function keyParam(params: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const value = params?.authorization ?? params?.Authorization ?? params?.apiKey;
  return typeof value === 'string' ? value : undefined;
}

/** An operation refused before it ran: its message and code, as the gateway's error formatter keeps them. */
const asGraphqlError = (error: AppError) => new GraphQLError(error.message, { originalError: error, extensions: { code: error.code } });
