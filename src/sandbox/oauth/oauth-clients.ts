import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { BASIC_SCOPES, isKnownScope } from '../auth/scopes.js';
import { hashToken, sameSecret } from '../auth/token-format.js';
import { invalidControlSettings } from '../sandbox-errors.js';

/** An OAuth integration as registered at /create/oauth. */
export interface OAuthClientConfig {
  clientId: string;
  /** Present: a confidential integration (HTTP Basic on the token route); absent: a public one (PKCE only). */
  clientSecret?: string;
  /** Compared exactly with the authorization request's `redirect_uri`. */
  redirectUris: string[];
  /** The scopes the integration may request; default: every basic scope. */
  scopes?: string[];
}

export interface StoredOAuthClient {
  clientId: string;
  /** sha256 of the secret; null for a public integration. */
  secretHash: string | null;
  redirectUris: string[];
  scopes: string[];
}

const configSchema = z.strictObject({
  clientId: z
    .string()
    .regex(/^[A-Za-z0-9._~-]{1,200}$/, 'clientId: 1–200 characters of A-Z a-z 0-9 . _ ~ -')
    .optional(),
  clientSecret: z.string().min(1).max(500).optional(),
  redirectUris: z
    .array(z.string().refine((uri) => URL.canParse(uri) && /^https?:$/.test(new URL(uri).protocol), 'an absolute http(s) URL'))
    .min(1),
  scopes: z
    .array(z.string().refine(isKnownScope, 'a known scope'))
    .min(1)
    .refine((scopes) => new Set(scopes).size === scopes.length, 'scopes must be unique')
    .optional(),
});

/** Checks a registration (options or `POST _control/oauth/clients`); a missing clientId is made up. 400 when invalid. */
export function parseClientConfig(value: unknown): OAuthClientConfig {
  const parsed = configSchema.safeParse(value ?? {});
  if (!parsed.success) throw invalidControlSettings(z.prettifyError(parsed.error));
  return { ...parsed.data, clientId: parsed.data.clientId ?? randomUUID() };
}

export class OAuthClients {
  private readonly clients = new Map<string, StoredOAuthClient>();

  constructor(
    saved: StoredOAuthClient[] | undefined,
    private readonly changed: () => void,
  ) {
    for (const client of saved ?? []) this.clients.set(client.clientId, client);
  }

  /** Registers, or replaces the registration with the same client id. */
  register(config: OAuthClientConfig): StoredOAuthClient {
    const client: StoredOAuthClient = {
      clientId: config.clientId,
      secretHash: config.clientSecret === undefined ? null : hashToken(config.clientSecret),
      redirectUris: [...config.redirectUris],
      scopes: [...(config.scopes ?? BASIC_SCOPES)],
    };
    this.clients.set(client.clientId, client);
    this.changed();
    return client;
  }

  get(clientId: string): StoredOAuthClient | undefined {
    return this.clients.get(clientId);
  }

  list(): StoredOAuthClient[] {
    return [...this.clients.values()];
  }

  exportState(): StoredOAuthClient[] {
    return this.list();
  }
}

export function secretMatches(client: StoredOAuthClient, secret: string): boolean {
  return client.secretHash !== null && sameSecret(hashToken(secret), client.secretHash);
}

/** What `_control/oauth/clients` shows: never the secret. */
export function toClientResponse(client: StoredOAuthClient) {
  return { clientId: client.clientId, confidential: client.secretHash !== null, redirectUris: client.redirectUris, scopes: client.scopes };
}
