import type { Request } from 'express';
import { modelNotFound } from '../sandbox-errors.js';
import { principalOf } from './principal.js';
import { requirementOf } from './route-requirements.js';
import type { SandboxAuth } from './sandbox-auth.js';
import { grants } from './scopes.js';
import { atLeast } from './user-directory.js';

/**
 * Throws Airtable's 403 INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND when the route needs a scope the token lacks, or a
 * base its user is not a collaborator of (at the level the route needs) or that was not granted to the token.
 */
export function createAccessCheck(auth: SandboxAuth): (req: Request) => void {
  return (req) => {
    const principal = principalOf(req);
    const requirement = principal && requirementOf(req.method, req.path);
    if (!principal || !requirement) return;
    if (requirement.scope !== undefined && !grants(principal.scopes, requirement.scope)) throw modelNotFound();
    if (requirement.baseId === undefined) return;
    const level = auth.levelFor(principal, requirement.baseId);
    if (!level || (requirement.level !== undefined && !atLeast(level, requirement.level))) throw modelNotFound();
  };
}
