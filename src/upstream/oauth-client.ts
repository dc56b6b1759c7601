import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';

/** The scopes basewatch asks for: the least its work needs (README: "Connecting an Airtable account"). */
export const REQUESTED_SCOPES = [
  'schema.bases:read', // list bases, read table schemas (helpers, counts, configs)
  'data.records:read', // count records and attachments; webhook payloads with cell values
  'data.records:write', // write the audit log into the Changes table
  'schema.bases:write', // create the Changes table and its missing columns
  'webhook:manage', // the upstream webhook that watches a base
  'user.email:read', // show whose account is connected
] as const;

export interface OAuthClientOptions {
  /** The authorize/token host: https://airtable.com, or the sandbox's mount point. */
  url: string;
  clientId: string;
  /** Confidential integrations authenticate with HTTP Basic; public ones send client_id in the body. */
  clientSecret?: string;
  /** Of one token request, default 10 s (well inside the refresh claim's 60 s). */
  timeoutMs?: number;
}

export interface TokenGrant {
  accessToken: string;
  refreshToken: string;
  scopes: string[];
  accessExpiresAt: Date;
  refreshExpiresAt: Date | null;
}

/** The token endpoint said no: `error` is OAuth's code (`invalid_grant`…), or `conflict` for its 409. */
export class OAuthTokenError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string | undefined,
  ) {
    super(`token endpoint answered ${status} ${error}${description ? `: ${description}` : ''}`);
    this.name = 'OAuthTokenError';
  }

  /**
   * The grant is dead (expired, rotated or revoked refresh token, spent code): only the user can renew it. Not
   * `invalid_client`: that is the deployment's configuration, and fixing it must not need every user to reconnect.
   */
  get needsReauthorization(): boolean {
    return this.error === 'invalid_grant';
  }
}

const tokenResponse = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  scope: z.string().default(''),
  expires_in: z.number().positive(),
  refresh_expires_in: z.number().positive().optional(),
});
const errorResponse = z.object({ error: z.string(), error_description: z.string().optional() });

/** A PKCE pair: the verifier kept by us, the S256 challenge sent with the authorization request. */
export function createPkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url'); // 64 characters of [A-Za-z0-9_-]
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** OAuth 2.0 authorization code + PKCE against Airtable's /oauth2/v1 routes (or the sandbox's). */
export class OAuthClient {
  private readonly url: string;

  constructor(private readonly options: OAuthClientOptions) {
    this.url = options.url.replace(/\/+$/, '');
  }

  authorizeUrl(params: { redirectUri: string; state: string; codeChallenge: string }): string {
    const query = new URLSearchParams({
      client_id: this.options.clientId,
      redirect_uri: params.redirectUri,
      response_type: 'code',
      scope: REQUESTED_SCOPES.join(' '),
      state: params.state,
      code_challenge: params.codeChallenge,
      code_challenge_method: 'S256',
    });
    return `${this.url}/oauth2/v1/authorize?${query}`;
  }

  exchangeCode(params: { code: string; redirectUri: string; codeVerifier: string }): Promise<TokenGrant> {
    return this.token({
      grant_type: 'authorization_code',
      code: params.code,
      redirect_uri: params.redirectUri,
      code_verifier: params.codeVerifier,
    });
  }

  refresh(refreshToken: string): Promise<TokenGrant> {
    return this.token({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  private async token(fields: Record<string, string>): Promise<TokenGrant> {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    const body = new URLSearchParams(fields);
    if (this.options.clientSecret) {
      // RFC 6749 §2.3.1: each part form-encoded first (a no-op for the platform's UUID ids and hex secrets).
      const credentials = `${formEncode(this.options.clientId)}:${formEncode(this.options.clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    } else {
      body.set('client_id', this.options.clientId);
    }
    const sentAt = Date.now();
    const response = await fetch(`${this.url}/oauth2/v1/token`, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
    });
    const json: unknown = await response.json().catch(() => ({}));
    if (!response.ok) {
      const parsed = errorResponse.safeParse(json);
      const error = response.status === 409 ? 'conflict' : parsed.success ? parsed.data.error : 'invalid_response';
      throw new OAuthTokenError(response.status, error, parsed.success ? parsed.data.error_description : undefined);
    }
    const grant = tokenResponse.safeParse(json);
    if (!grant.success) throw new OAuthTokenError(response.status, 'invalid_response', 'the token response was not understood');
    const { access_token, refresh_token, scope, expires_in, refresh_expires_in } = grant.data;
    return {
      accessToken: access_token,
      refreshToken: refresh_token,
      scopes: scope.split(' ').filter(Boolean),
      accessExpiresAt: new Date(sentAt + expires_in * 1000),
      refreshExpiresAt: refresh_expires_in ? new Date(sentAt + refresh_expires_in * 1000) : null,
    };
  }
}

function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}
