import type { VisibleBase } from '../auth/sandbox-auth.js';
import type { SandboxUser } from '../auth/user-directory.js';

const SCOPE_DESCRIPTIONS: Record<string, string> = {
  'data.records:read': 'See the data in records',
  'data.records:write': 'Create, edit and delete records',
  'data.recordComments:read': 'See comments in records',
  'data.recordComments:write': 'Create, edit and delete record comments',
  'schema.bases:read': 'See the structure of a base, like table names or field types',
  'schema.bases:write': 'Edit the structure of a base, like adding new fields or tables',
  'webhook:manage': 'View, create and delete webhooks for a base, and fetch webhook payloads',
  'block:manage': 'Create new releases and submissions for custom extensions',
  'user.email:read': "See the user's email address",
  'workspacesAndBases:read': 'See the workspaces and bases the user can access',
};

export interface ConsentContext {
  clientId: string;
  scopes: string[];
  /** The authorization request's own parameters, carried through the form as hidden fields. */
  parameters: Array<[string, string]>;
}

/** Step 1: which sandbox user is signing in (a GET back to `authorize` with `sandbox_user`). */
export function chooseUserPage(context: ConsentContext, users: SandboxUser[]): string {
  const options = users.map((user) => `<option value="${escapeHtml(user.id)}">${escapeHtml(userLabel(user))}</option>`).join('');
  return page(
    `Authorize ${context.clientId}`,
    `<h1>Connect to the Airtable sandbox</h1>
${requestSummary(context)}
<form method="get" action="authorize">
${hiddenFields(context.parameters)}
<p><label for="sandbox_user">Sign in as</label>
<select id="sandbox_user" name="sandbox_user" required>${options}</select></p>
<p><button type="submit">Continue</button></p>
</form>`,
  );
}

/** Step 2: the bases to grant, then Allow or Deny (a form POST to `authorize`). */
export function chooseBasesPage(context: ConsentContext, user: SandboxUser, bases: VisibleBase[]): string {
  const switchUser = `authorize?${new URLSearchParams(context.parameters).toString()}`;
  const baseRows = bases
    .map(({ base, level }) => {
      const id = `base-${escapeHtml(base.id)}`;
      return `<li><input type="checkbox" id="${id}" name="base" value="${escapeHtml(base.id)}"> <label for="${id}">${escapeHtml(base.name)}</label> <small>(${escapeHtml(base.id)}, ${escapeHtml(level)})</small></li>`;
    })
    .join('\n');
  return page(
    `Authorize ${context.clientId}`,
    `<h1>Grant access to ${escapeHtml(context.clientId)}</h1>
<p>Signed in as <strong>${escapeHtml(userLabel(user))}</strong> (<a href="${escapeHtml(switchUser)}">another user</a>).</p>
${requestSummary(context)}
<form method="post" action="authorize">
${hiddenFields([...context.parameters, ['sandbox_user', user.id]])}
<fieldset>
<legend>Bases to grant</legend>
<p><input type="checkbox" id="all_bases" name="all_bases" value="on"> <label for="all_bases">All current and future bases of this user</label></p>
${bases.length === 0 ? '<p>This user has no bases.</p>' : `<ul>\n${baseRows}\n</ul>`}
</fieldset>
<p><button type="submit" name="decision" value="allow">Allow access</button>
<button type="submit" name="decision" value="deny">Deny</button></p>
</form>`,
  );
}

/** For an unknown client or redirect URI, or a consent form that cannot be used: shown, never redirected. */
export function errorPage(message: string): string {
  return page('Authorization error', `<h1>Authorization error</h1>\n<p role="alert">${escapeHtml(message)}</p>`);
}

function requestSummary(context: ConsentContext): string {
  const items = context.scopes
    .map(
      (scope) =>
        `<li><code>${escapeHtml(scope)}</code>${SCOPE_DESCRIPTIONS[scope] ? `: ${escapeHtml(SCOPE_DESCRIPTIONS[scope])}` : ''}</li>`,
    )
    .join('\n');
  return `<p>The integration <strong>${escapeHtml(context.clientId)}</strong> asks to:</p>\n<ul>\n${items}\n</ul>`;
}

function hiddenFields(parameters: Array<[string, string]>): string {
  return parameters.map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('\n');
}

function userLabel(user: SandboxUser): string {
  return user.name ? `${user.name} <${user.email}>` : user.email;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Airtable sandbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
fieldset{margin:1rem 0}ul{padding-left:1.2rem}button{font:inherit;padding:.4rem 1rem;margin-right:.5rem}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
