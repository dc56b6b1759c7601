import { createHash } from 'node:crypto';

/** base64url(sha256) is always 43 characters. */
export const CODE_CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** RFC 7636 allows `~` too; Airtable's rule (airtable-oauth.md §1.1) does not. */
export const CODE_VERIFIER_PATTERN = /^[A-Za-z0-9._-]{43,128}$/;

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}
