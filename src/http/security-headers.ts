import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * Every answer's policy: an API answer (JSON) loads nothing and may not be framed. Pages set their own below, over it.
 */
const ANSWER_CSP = { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] };

/**
 * helmet's headers on every answer: `X-Content-Type-Options: nosniff`, the policy above, `X-Frame-Options`, the
 * cross-origin isolation headers and a `Referrer-Policy`; HSTS (a year, this host only) when PUBLIC_URL is https, the
 * address browsers are sent to. Behind a TLS-terminating proxy without an https PUBLIC_URL nothing says the service is
 * reached over https, so no HSTS.
 */
export function securityHeaders(publicUrl: string | undefined): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: ANSWER_CSP },
    strictTransportSecurity: publicUrl?.startsWith('https:') ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  });
}

/** A page's own policy, replacing the answers' one. Each page's directives say what it loads. */
type Directives = NonNullable<NonNullable<Parameters<typeof helmet.contentSecurityPolicy>[0]>['directives']>;

export function pagePolicy(directives: Directives): RequestHandler {
  return helmet.contentSecurityPolicy({ useDefaults: false, directives: { ...directives, frameAncestors: ["'none'"] } });
}

/**
 * For pages whose loads another policy already bounds (Apollo's landing page has its own in a `<meta>` with a nonce),
 * or that come whole from a package (the job dashboard): only what a `<meta>` cannot say, no framing.
 */
export const FRAMING_ONLY_CSP = "frame-ancestors 'none'";
