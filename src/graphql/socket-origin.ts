import type { IncomingMessage } from 'node:http';

/**
 * Whether a WebSocket's upgrade request comes from a page allowed to use the browser's session cookie on it
 * (cross-site WebSocket hijacking: browsers send cookies on any site's WebSocket, and CORS does not apply). Allowed:
 * the app's own origin (PUBLIC_URL's, or without it the Host header's) and the origins listed in CORS_ORIGINS; `*`
 * allows no cookie. An upgrade without an Origin header did not come from a browser page and is refused too.
 */
export function cookieOriginCheck(publicUrl: string | undefined, corsOrigins: string[]): (request: IncomingMessage) => boolean {
  const listed = new Set(corsOrigins.filter((origin) => origin !== '*'));
  if (publicUrl) listed.add(new URL(publicUrl).origin);
  return (request) => {
    const origin = request.headers.origin;
    if (!origin) return false;
    if (listed.has(origin)) return true;
    // The app is served over plain HTTP when PUBLIC_URL is not set (it trusts no proxy's X-Forwarded-Proto).
    return !publicUrl && request.headers.host !== undefined && origin === `http://${request.headers.host}`;
  };
}
