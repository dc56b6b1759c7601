import { createHash, randomBytes } from 'node:crypto';
import type { TokenResponse } from '../../src/sandbox/index.js';
import type { SandboxHarness } from './sandbox-harness.js';

export const CONFIDENTIAL = { clientId: 'conf-client', clientSecret: 's3cret-value', redirectUris: ['https://app.example/oauth/callback'] };
export const PUBLIC = { clientId: 'public-client', redirectUris: ['http://localhost:5173/callback'] };
export const STATE = 'state-0123456789abcdef';

export const MODEL_NOT_FOUND = {
  error: {
    type: 'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND',
    message:
      'Invalid permissions, or the requested model was not found. Check that both your user and your token have the required permissions, and that the model names and/or ids are correct.',
  },
};
export const AUTHENTICATION_REQUIRED = { error: { type: 'AUTHENTICATION_REQUIRED', message: 'Authentication required' } };

export function newPkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface AuthorizeParams {
  client_id?: string;
  redirect_uri?: string;
  response_type?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  [extra: string]: string | undefined;
}

/** Valid parameters for the client, overridden by `params` (undefined removes one). */
export function authorizeQuery(client: { clientId: string; redirectUris: string[] }, challenge: string, params: AuthorizeParams = {}) {
  const all: AuthorizeParams = {
    client_id: client.clientId,
    redirect_uri: client.redirectUris[0],
    response_type: 'code',
    scope: 'data.records:read schema.bases:read',
    state: STATE,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...params,
  };
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(all)) if (value !== undefined) query.set(name, value);
  return query;
}

export interface BrowserResponse {
  status: number;
  location: string | null;
  /** The redirect's query, when there is one. */
  redirect: URLSearchParams | null;
  html: string;
  contentType: string | null;
}

/** What a browser would get, without following redirects. */
export async function browse(harness: SandboxHarness, path: string, form?: URLSearchParams): Promise<BrowserResponse> {
  const response = await fetch(harness.root + path, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    ...(form ? { body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {}),
  });
  const location = response.headers.get('location');
  return {
    status: response.status,
    location,
    redirect: location ? new URL(location).searchParams : null,
    html: await response.text(),
    contentType: response.headers.get('content-type'),
  };
}

export interface TokenCallOptions {
  /** HTTP Basic credentials. */
  basic?: [clientId: string, secret: string];
  contentType?: string;
  rawBody?: string;
}

export async function tokenCall<T = TokenResponse>(
  harness: SandboxHarness,
  params: Record<string, string>,
  options: TokenCallOptions = {},
): Promise<{ status: number; body: T; headers: Headers }> {
  const response = await fetch(`${harness.root}/oauth2/v1/token`, {
    method: 'POST',
    headers: {
      'content-type': options.contentType ?? 'application/x-www-form-urlencoded',
      ...(options.basic ? { authorization: `Basic ${Buffer.from(options.basic.join(':')).toString('base64')}` } : {}),
    },
    body: options.rawBody ?? new URLSearchParams(params).toString(),
  });
  return { status: response.status, body: (await response.json()) as T, headers: response.headers };
}

export interface Grant {
  scopes: string;
  userId: string;
  baseIds: string[] | 'all';
  client?: { clientId: string; clientSecret?: string; redirectUris: string[] };
}

/** The whole dance through `_control/oauth/consent`: authorize (answered at once), then the code exchange. */
export async function oauthTokens(harness: SandboxHarness, grant: Grant): Promise<TokenResponse> {
  const client = grant.client ?? CONFIDENTIAL;
  const consent = await harness.call('PUT', '/_control/oauth/consent', { body: { userId: grant.userId, baseIds: grant.baseIds } });
  if (consent.status !== 200) throw new Error(`consent: ${consent.status} ${JSON.stringify(consent.body)}`);
  const pkce = newPkce();
  const authorized = await browse(harness, `/oauth2/v1/authorize?${authorizeQuery(client, pkce.challenge, { scope: grant.scopes })}`);
  const code = authorized.redirect?.get('code');
  if (!code) throw new Error(`authorize: ${authorized.status} ${authorized.location}`);
  await harness.call('DELETE', '/_control/oauth/consent');
  const exchange = await tokenCall(
    harness,
    {
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUris[0]!,
      code_verifier: pkce.verifier,
      ...(client.clientSecret ? {} : { client_id: client.clientId }),
    },
    client.clientSecret ? { basic: [client.clientId, client.clientSecret] } : {},
  );
  if (exchange.status !== 200) throw new Error(`token: ${exchange.status} ${JSON.stringify(exchange.body)}`);
  return exchange.body;
}

export interface CreatedUser {
  id: string;
  email: string;
  name?: string;
  token: string;
}

export interface CreatedBase {
  id: string;
  name: string;
  permissionLevel: string;
  tables: Array<{ id: string; name: string; primaryFieldId: string; fields: Array<{ id: string; name: string; type: string }> }>;
}

export async function createUser(harness: SandboxHarness, email: string, name?: string): Promise<CreatedUser> {
  const response = await harness.call<CreatedUser>('POST', '/_control/users', { body: { email, ...(name ? { name } : {}) } });
  if (response.status !== 201) throw new Error(`create user: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export async function createUserBase(harness: SandboxHarness, userId: string, name: string): Promise<CreatedBase> {
  const response = await harness.call<CreatedBase>('POST', `/_control/users/${userId}/bases`, { body: { name } });
  if (response.status !== 201) throw new Error(`create base: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}
