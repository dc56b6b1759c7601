import type { ActionMetadata } from '../../upstream/webhook-types.js';
import { SANDBOX_API_USER } from '../actor.js';
import { idFromText } from '../id-generator.js';
import type { ChangeActor, ChangeUser } from '../sandbox-change.types.js';

/** The sandbox has no forms, interface pages or automations: their ids are stable fakes derived from the table / base. */
export function formViewIdFor(tableId: string): string {
  return idFromText('viw', `form:${tableId}`);
}

export function formPageIdFor(baseId: string): string {
  return `pag${idFromText('viw', `page:${baseId}`).slice(3)}`;
}

export function automationIdFor(baseId: string): string {
  return `wfl${idFromText('viw', `automation:${baseId}`).slice(3)}`;
}

/** `sourceMetadata` shaped per source as the platform's payloads have it. */
export function toActionMetadata(actor: ChangeActor, where: { baseId: string; tableId: string }): ActionMetadata {
  switch (actor.source) {
    case 'client':
    case 'publicApi':
      return { source: actor.source, sourceMetadata: { user: toWebhookUser(actor.user ?? SANDBOX_API_USER) } };
    case 'formSubmission':
      return { source: actor.source, sourceMetadata: { viewId: formViewIdFor(where.tableId) } };
    case 'formPageSubmission':
      return { source: actor.source, sourceMetadata: { pageId: formPageIdFor(where.baseId) } };
    case 'automation':
      return { source: actor.source, sourceMetadata: { automationId: automationIdFor(where.baseId) } };
    default:
      return { source: actor.source };
  }
}

/** Everyone acting through the sandbox holds the base creator's level. */
function toWebhookUser(user: ChangeUser) {
  return { id: user.id, email: user.email, ...(user.name === undefined ? {} : { name: user.name }), permissionLevel: 'create' };
}
