import type { Store } from 'express-rate-limit';
import { Router, type Request } from 'express';
import { DeviceCookies } from '../auth/device-cookie.js';
import { clearSessionCookie, setSessionCookie } from '../auth/session-cookie.js';
import { signInLimits } from '../auth/sign-in-limits.js';
import { unauthorized } from '../errors.js';
import type { Services } from '../services.js';
import type { SignedIn } from '../services/users/user.service.js';
import { authRoutes as endpoints } from './auth.endpoints.js';
import { mount } from './http/route.js';

/** The web application's sign-in: the cookie is set and cleared here, every rule lives in the user services. */
export function createAuthRouter(
  { users, sessions, secrets }: Services,
  secureCookie: boolean,
  limitStore?: (prefix: string) => Store | undefined,
): Router {
  const router = Router();
  const devices = new DeviceCookies(secrets, secureCookie);
  const limits = signInLimits(devices, limitStore);
  // Each of these proved the password: the browser is known to the e-mail from now on (sign-in-limits.ts).
  const signedIn = (req: Request, { token, view }: SignedIn) => {
    setSessionCookie(req.res!, token, secureCookie);
    devices.remember(req.res!, view.user.email);
    return view;
  };

  router.post(endpoints.signIn.path, limits.perIp, ...limits.signIn);
  for (const path of [endpoints.signUp.path, endpoints.changePassword.path, endpoints.setPassword.path]) router.post(path, limits.perIp);

  mount(router, endpoints.signUp, async ({ body }, req) => signedIn(req, await users.signUp(body, req.get('user-agent'))));
  mount(router, endpoints.signIn, async ({ body }, req) => signedIn(req, await users.signIn(body, req.get('user-agent'))));
  mount(router, endpoints.signOut, async (_input, req) => {
    const { sessionId } = req.res!.locals;
    if (typeof sessionId === 'string') await sessions.revoke(sessionId);
    clearSessionCookie(req.res!, secureCookie);
  });
  mount(router, endpoints.session, async ({ account }, req) => {
    const { user, csrfToken } = sessionOf(req);
    return { user, account, csrfToken };
  });
  mount(router, endpoints.changePassword, async ({ body }, req) => {
    signedIn(req, await users.changePassword(sessionOf(req).user.id, body, req.get('user-agent')));
  });
  mount(router, endpoints.listSessions, async (_input, req) => {
    const { user, sessionId } = sessionOf(req);
    const list = await sessions.list(user.id, sessionId);
    return {
      sessions: list.map((s) => ({
        ...s,
        createdAt: s.createdAt.toISOString(),
        lastUsedAt: s.lastUsedAt.toISOString(),
        expiresAt: s.expiresAt.toISOString(),
      })),
    };
  });
  mount(router, endpoints.signOutEverywhere, async (_input, req) => {
    await sessions.revokeAll(sessionOf(req).user.id);
    clearSessionCookie(req.res!, secureCookie);
  });
  mount(router, endpoints.setPassword, async ({ body }, req) => {
    signedIn(req, await users.setPassword(body, req.get('user-agent')));
  });
  return router;
}

/** The session of a cookie request; an API key has none (401). */
function sessionOf(req: Request): { user: { id: string; email: string }; sessionId: string; csrfToken: string } {
  const locals = req.res!.locals;
  if (locals.authMethod !== 'session') throw unauthorized('This needs the web application’s session cookie');
  return { user: locals.user, sessionId: locals.sessionId, csrfToken: locals.csrfToken };
}
