import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_BASE_NAMES, DEMO_USER, userFromEmail, type SandboxChange } from '../../src/sandbox/index.js';
import { AUTHENTICATION_REQUIRED, MODEL_NOT_FOUND, createUser, createUserBase, type CreatedUser } from './oauth-harness.js';
import { baseIdByName, startSandbox, type SandboxHarness } from './sandbox-harness.js';

interface BasesBody {
  bases: Array<{ id: string; name: string; permissionLevel: string }>;
}

const PAT_SHAPE = /^pat[A-Za-z0-9]{14}\.[0-9a-f]{64}$/;

let harness: SandboxHarness;
beforeEach(async () => {
  harness = await startSandbox();
});
afterEach(() => harness.close());

const basesOf = async (token: string) => {
  const response = await harness.call<BasesBody>('GET', '/v0/meta/bases', { token });
  expect(response.status).toBe(200);
  return response.body.bases;
};

describe('sandbox users', () => {
  it('creates users with a PAT and bases of their own; the admin token keeps the demo bases', async () => {
    const ada = await createUser(harness, 'Ada@Example.com', 'Ada Lovelace');
    expect(ada).toEqual({
      id: userFromEmail('ada@example.com').id,
      email: 'Ada@Example.com',
      name: 'Ada Lovelace',
      token: expect.stringMatching(PAT_SHAPE),
    });
    expect(ada.id).toMatch(/^usr[A-Za-z0-9]{14}$/);

    const crm = await createUserBase(harness, ada.id, 'Ada CRM');
    expect(crm).toMatchObject({ id: expect.stringMatching(/^app[A-Za-z0-9]{14}$/), name: 'Ada CRM', permissionLevel: 'create' });
    expect(crm.tables).toHaveLength(1);
    expect(crm.tables[0]).toMatchObject({ name: 'Table 1', fields: [{ name: 'Name', type: 'singleLineText' }] });
    expect(crm.tables[0]!.primaryFieldId).toBe(crm.tables[0]!.fields[0]!.id);

    expect(await basesOf(ada.token)).toEqual([{ id: crm.id, name: 'Ada CRM', permissionLevel: 'create' }]);
    const demo = await basesOf('sandbox-test-token');
    expect(demo.map((base) => base.name)).toEqual(Object.values(DEMO_BASE_NAMES));
    expect(demo.every((base) => base.permissionLevel === 'create')).toBe(true);

    const write = await harness.call('POST', `/v0/${crm.id}/Table 1`, { token: ada.token, body: { fields: { Name: 'First' } } });
    expect(write.status).toBe(200);
    const list = await harness.call<{ records: unknown[] }>('GET', `/v0/${crm.id}/${crm.tables[0]!.id}`, { token: ada.token });
    expect(list.body.records).toHaveLength(1);

    const users = await harness.call<{ users: Array<{ id: string; email: string; bases: unknown[] }> }>('GET', '/_control/users');
    expect(users.body.users.map((user) => [user.email, user.bases.length])).toEqual([
      [DEMO_USER.email, Object.values(DEMO_BASE_NAMES).length],
      ['Ada@Example.com', 1],
    ]);
  });

  it("answers 403 for another user's base, with Airtable's exact body, until it is shared", async () => {
    const ada = await createUser(harness, 'ada@example.com');
    const bob = await createUser(harness, 'bob@example.com');
    const crm = await createUserBase(harness, ada.id, 'Ada CRM');
    const table = crm.tables[0]!.id;
    const catalog = baseIdByName(harness.sandbox, DEMO_BASE_NAMES.catalog);

    for (const [method, path] of [
      ['GET', `/v0/${crm.id}/${table}`],
      ['GET', `/v0/meta/bases/${crm.id}/tables`],
      ['GET', `/v0/bases/${crm.id}/webhooks`],
      ['POST', `/v0/${crm.id}/${table}/listRecords`],
    ] as const) {
      for (const token of [bob.token, 'sandbox-test-token']) {
        const refused = await harness.call(method, path, { token, body: method === 'POST' ? {} : undefined });
        expect(refused.status, `${method} ${path}`).toBe(403);
        expect(refused.body).toEqual(MODEL_NOT_FOUND);
      }
    }
    const demoRefused = await harness.call('GET', `/v0/${catalog}/Products`, { token: ada.token });
    expect(demoRefused.status).toBe(403);
    expect(demoRefused.body).toEqual(MODEL_NOT_FOUND);
    expect(await basesOf(bob.token)).toEqual([]);

    const shared = await harness.call('POST', `/_control/bases/${crm.id}/share`, { body: { userId: bob.id, permissionLevel: 'read' } });
    expect(shared.status).toBe(200);
    expect(shared.body).toEqual({ baseId: crm.id, userId: bob.id, permissionLevel: 'read' });
    expect(await basesOf(bob.token)).toEqual([{ id: crm.id, name: 'Ada CRM', permissionLevel: 'read' }]);
    expect(await basesOf(ada.token)).toEqual([{ id: crm.id, name: 'Ada CRM', permissionLevel: 'create' }]);
    expect((await harness.call('GET', `/v0/${crm.id}/${table}`, { token: bob.token })).status).toBe(200);
    const readOnly = await harness.call('POST', `/v0/${crm.id}/${table}`, { token: bob.token, body: { fields: { Name: 'x' } } });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body).toEqual(MODEL_NOT_FOUND);

    // The default level is create; a change made with Bob's token is Bob's.
    await harness.call('POST', `/_control/bases/${crm.id}/share`, { body: { userId: bob.id } });
    const changes: SandboxChange[] = [];
    harness.sandbox.events.on('change', (change: SandboxChange) => changes.push(change));
    expect((await harness.call('POST', `/v0/${crm.id}/${table}`, { token: bob.token, body: { fields: { Name: 'x' } } })).status).toBe(200);
    expect(changes[0]!.actor).toEqual({ source: 'publicApi', user: { id: bob.id, email: 'bob@example.com' } });

    // A demo base shared with Ada stays the demo user's too.
    await harness.call('POST', `/_control/bases/${catalog}/share`, { body: { userId: ada.id, permissionLevel: 'edit' } });
    expect((await basesOf(ada.token)).map((base) => [base.name, base.permissionLevel])).toEqual([
      [DEMO_BASE_NAMES.catalog, 'edit'],
      ['Ada CRM', 'create'],
    ]);
    expect((await basesOf('sandbox-test-token')).find((base) => base.id === catalog)?.permissionLevel).toBe('create');
    const schemaWrite = await harness.call('POST', `/v0/meta/bases/${catalog}/tables`, {
      token: ada.token,
      body: { name: 'Nope', fields: [{ name: 'Name', type: 'singleLineText' }] },
    });
    expect(schemaWrite.status).toBe(403);
  });

  it('checks control requests: admin token only, unknown ids, duplicate emails, bad bodies', async () => {
    const ada = await createUser(harness, 'ada@example.com');
    const notAdmin = await harness.call('GET', '/_control/faults', { token: ada.token });
    expect(notAdmin.status).toBe(403);
    expect(notAdmin.body.error.type).toBe('INVALID_PERMISSIONS');
    expect((await harness.call('POST', '/_control/users', { token: null, body: { email: 'x@example.com' } })).status).toBe(401);

    const duplicate = await harness.call('POST', '/_control/users', { body: { email: 'ADA@example.com' } });
    expect(duplicate.status).toBe(409);
    expect((await harness.call('POST', '/_control/users', { body: { email: DEMO_USER.email } })).status).toBe(409);
    expect((await harness.call('POST', '/_control/users', { body: { email: 'not an email' } })).status).toBe(400);
    expect((await harness.call('POST', '/_control/users/usrNoSuchUser0000/bases', { body: { name: 'X' } })).status).toBe(404);
    expect((await harness.call('POST', `/_control/users/${ada.id}/bases`, { body: {} })).status).toBe(400);
    expect((await harness.call('POST', '/_control/bases/appNoSuchBase0000/share', { body: { userId: ada.id } })).status).toBe(404);
    const catalog = baseIdByName(harness.sandbox, DEMO_BASE_NAMES.catalog);
    expect(
      (await harness.call('POST', `/_control/bases/${catalog}/share`, { body: { userId: ada.id, permissionLevel: 'owner' } })).status,
    ).toBe(400);
  });
});

describe('whoami', () => {
  it('answers id and email for PATs (no scopes), and 401 for a bad token', async () => {
    const ada = await createUser(harness, 'ada@example.com', 'Ada');
    expect((await harness.call('GET', '/v0/meta/whoami')).body).toEqual({ id: DEMO_USER.id, email: DEMO_USER.email });
    expect((await harness.call('GET', '/v0/meta/whoami', { token: ada.token })).body).toEqual({ id: ada.id, email: 'ada@example.com' });
    for (const token of ['patNoSuchToken0000.0000', null]) {
      const refused = await harness.call('GET', '/v0/meta/whoami', { token });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual(AUTHENTICATION_REQUIRED);
    }
  });

  it('gives a PAT made with scopes and bases only those: no email without user.email:read', async () => {
    const ada: CreatedUser = await createUser(harness, 'ada@example.com');
    const crm = await createUserBase(harness, ada.id, 'Ada CRM');
    const other = await createUserBase(harness, ada.id, 'Ada Other');
    const made = await harness.call<{ id: string; token: string; scopes: string[]; baseIds: string[] }>(
      'POST',
      `/_control/users/${ada.id}/tokens`,
      {
        body: { scopes: ['data.records:read'], baseIds: [crm.id] },
      },
    );
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ scopes: ['data.records:read'], baseIds: [crm.id], token: expect.stringMatching(PAT_SHAPE) });
    expect(made.body.token.startsWith(made.body.id)).toBe(true);
    const token = made.body.token;

    expect((await harness.call('GET', '/v0/meta/whoami', { token })).body).toEqual({ id: ada.id });
    expect((await harness.call('GET', `/v0/${crm.id}/Table 1`, { token })).status).toBe(200);
    expect((await harness.call('GET', `/v0/${other.id}/Table 1`, { token })).status).toBe(403);
    expect((await harness.call('GET', '/v0/meta/bases', { token })).status).toBe(403);
    const write = await harness.call('POST', `/v0/${crm.id}/Table 1`, { token, body: { fields: { Name: 'x' } } });
    expect(write.status).toBe(403);
    expect(write.body).toEqual(MODEL_NOT_FOUND);
    expect((await harness.call('POST', `/_control/users/${ada.id}/tokens`, { body: { baseIds: ['appNotAdas0000000'] } })).status).toBe(400);
  });
});
