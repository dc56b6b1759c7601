import { userInput } from '../services/users/user.input.js';
import { defineRoute } from './http/route.js';
import { Timestamp } from './schemas.js';
import { z } from './zod.js';

const tag = 'Web sign-in';

const cookieNote =
  'Sets the `basewatch_session` cookie (HttpOnly, SameSite=Lax, Path=/, Secure when PUBLIC_URL is https; 14 days, sliding). Writes authenticated by that cookie must send the `csrfToken` in `X-CSRF-Token`.';

export const SessionBody = z
  .strictObject({
    user: z.strictObject({ id: z.string(), email: z.string() }),
    account: z.strictObject({ id: z.string(), name: z.string() }),
    csrfToken: z.string().openapi({ description: 'send it as X-CSRF-Token with every cookie-authenticated write' }),
  })
  .openapi('Session');

const SessionListBody = z.strictObject({
  sessions: z.array(
    z.strictObject({
      id: z.string(),
      userAgent: z.string().nullable(),
      createdAt: Timestamp,
      lastUsedAt: Timestamp,
      expiresAt: Timestamp,
      current: z.boolean().openapi({ description: 'the session of this request' }),
    }),
  ),
});

export const authRoutes = {
  signUp: defineRoute({
    method: 'post',
    path: '/auth/sign-up',
    operationId: 'signUp',
    summary: 'Create an account and its owner, and sign in (web application)',
    description: `Password: 10–256 characters, not the e-mail. The account is named \`accountName\`, else the e-mail. 404 \`not_found\` when SIGNUP=closed (the endpoint is then absent); 409 when the e-mail has a user already. ${cookieNote}`,
    tag,
    auth: false,
    body: userInput.signUp,
    success: { status: 201, description: 'Signed in', schema: SessionBody },
    errors: [404, 409, 429],
  }),
  signIn: defineRoute({
    method: 'post',
    path: '/auth/sign-in',
    operationId: 'signIn',
    summary: 'Sign in with e-mail and password (web application)',
    description: `The same 401 for an unknown e-mail and a wrong password. Failed attempts are limited per e-mail (5) and per address (30) in 15 minutes: 429 with Retry-After. ${cookieNote}`,
    tag,
    auth: false,
    body: userInput.signIn,
    success: { status: 200, description: 'Signed in', schema: SessionBody },
    errors: [401, 429],
  }),
  signOut: defineRoute({
    method: 'post',
    path: '/auth/sign-out',
    operationId: 'signOut',
    summary: 'End this browser’s session (web application)',
    description: 'Revokes the session of the cookie and clears the cookie; 204 also without a session.',
    tag,
    auth: false,
    success: { status: 204, description: 'Signed out' },
    errors: [],
  }),
  session: defineRoute({
    method: 'get',
    path: '/auth/session',
    operationId: 'getSession',
    summary: 'The signed-in user, their account and the CSRF token (web application)',
    description: '401 without a live session cookie (an API key has no session).',
    tag,
    success: { status: 200, description: 'The session', schema: SessionBody },
    errors: [],
  }),
  changePassword: defineRoute({
    method: 'post',
    path: '/auth/password',
    operationId: 'changePassword',
    summary: 'Change the password (web application)',
    description: `Ends every session of the user, this one included, then signs this browser in again with a new cookie (and a new csrfToken: read GET /auth/session). A wrong \`currentPassword\` is a 400. ${cookieNote}`,
    tag,
    body: userInput.changePassword,
    success: { status: 204, description: 'Changed; this browser has a new session cookie' },
    errors: [429],
  }),
  listSessions: defineRoute({
    method: 'get',
    path: '/auth/sessions',
    operationId: 'listSessions',
    summary: 'The user’s live sessions (web application)',
    tag,
    success: { status: 200, description: 'Live sessions, most recently used first', schema: SessionListBody },
    errors: [],
  }),
  signOutEverywhere: defineRoute({
    method: 'delete',
    path: '/auth/sessions',
    operationId: 'signOutEverywhere',
    summary: 'Sign out everywhere: end every session of the user (web application)',
    description: 'This one included; its cookie is cleared.',
    tag,
    success: { status: 204, description: 'Every session ended' },
    errors: [],
  }),
  setPassword: defineRoute({
    method: 'post',
    path: '/auth/set-password',
    operationId: 'setPassword',
    summary: 'Set the password with a one-time link from the CLI (web application)',
    description: `The \`token\` of \`PUBLIC_URL/set-password?token=…\` (\`cli user create\`): single use, valid 24 hours; unknown, used or expired: 400. Ends the user’s other sessions. ${cookieNote}`,
    tag,
    auth: false,
    body: userInput.setPassword,
    success: { status: 204, description: 'Password set; this browser is signed in' },
    errors: [429],
  }),
};
