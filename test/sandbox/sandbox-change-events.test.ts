import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_API_USER, type SandboxChange } from '../../src/sandbox/index.js';
import { startSandbox, type RecordBody, type SandboxHarness } from './sandbox-harness.js';

describe('sandbox change events', () => {
  let harness: SandboxHarness;

  beforeAll(async () => {
    harness = await startSandbox({ demo: false });
  });

  afterAll(() => harness.close());

  function setUp() {
    const base = harness.sandbox.store.addBase({
      name: 'Events',
      tables: [
        {
          name: 'Tasks',
          fields: [
            { name: 'Title', type: 'singleLineText' },
            { name: 'Files', type: 'multipleAttachments' },
          ],
        },
      ],
    });
    const changes: SandboxChange[] = [];
    harness.sandbox.events.on('change', (change: SandboxChange) => {
      if (change.baseId === base.id) changes.push(change);
    });
    const table = base.tables[0];
    return { base, table, path: `/v0/${base.id}/${table.id}`, changes, titleId: table.fields[0].id };
  }

  it('emits created, updated and deleted records with the actor of the X-Sandbox headers', async () => {
    const { base, table, path, changes, titleId } = setUp();
    const headers = { 'X-Sandbox-Source': 'automation', 'X-Sandbox-User-Email': 'bot@example.com' };

    const created = await harness.call<RecordBody>('POST', path, { headers, body: { fields: { Title: 'Write docs' } } });
    await harness.call('PATCH', `${path}/${created.body.id}`, { headers, body: { fields: { Title: 'Write more docs' } } });
    await harness.call('PATCH', `${path}/${created.body.id}`, { headers, body: { fields: { Title: 'Write more docs' } } });
    await harness.call('DELETE', `${path}/${created.body.id}`, { headers: { 'X-Sandbox-Source': 'sync' } });

    expect(changes.map((change) => change.kind)).toEqual(['recordsCreated', 'recordsUpdated', 'recordsDeleted']);
    const [create, update, remove] = changes;
    const common = { baseId: base.id, tableId: table.id, tableName: 'Tasks' };
    expect(create).toMatchObject({
      ...common,
      actor: { source: 'automation', user: { email: 'bot@example.com' } },
      records: [{ id: created.body.id, createdTime: created.body.createdTime, cellValuesByFieldId: { [titleId]: 'Write docs' } }],
    });
    expect(create.at).toBeInstanceOf(Date);
    expect(update).toMatchObject({
      records: [
        {
          id: created.body.id,
          changedFieldIds: [titleId],
          previous: { [titleId]: 'Write docs' },
          current: { [titleId]: 'Write more docs' },
        },
      ],
    });
    expect(remove).toMatchObject({
      actor: { source: 'sync' },
      records: [{ id: created.body.id, previous: { [titleId]: 'Write more docs' } }],
    });
    expect(remove.actor.user).toBeUndefined();
  });

  it('derives the same user id from the same email and defaults to the API user', async () => {
    const { path, changes } = setUp();
    const email = { 'X-Sandbox-User-Email': 'Ada@Example.com' };
    await harness.call('POST', path, { headers: email, body: { fields: { Title: 'one' } } });
    await harness.call('POST', path, { headers: { 'X-Sandbox-User-Email': 'ada@example.com' }, body: { fields: { Title: 'two' } } });
    await harness.call('POST', path, { body: { fields: { Title: 'three' } } });

    const [first, second, third] = changes;
    expect(first.actor.user?.id).toBe(second.actor.user?.id);
    expect(third.actor).toEqual({ source: 'publicApi', user: SANDBOX_API_USER });
  });

  it('refuses an unknown X-Sandbox-Source', async () => {
    const { path, changes } = setUp();
    const response = await harness.call('POST', path, { headers: { 'X-Sandbox-Source': 'robot' }, body: { fields: { Title: 'x' } } });
    expect(response.status).toBe(422);
    expect(response.body.error.type).toBe('INVALID_REQUEST_UNKNOWN');
    expect(changes).toEqual([]);
  });

  it('reports attachments with their urls and sizes', async () => {
    const { table, path, changes } = setUp();
    await harness.call('POST', path, { body: { fields: { Files: [{ url: 'https://example.com/a.pdf', size: 10 }] } } });
    const [created] = changes;
    expect(created).toMatchObject({
      kind: 'recordsCreated',
      records: [
        {
          cellValuesByFieldId: {
            [table.fields[1].id]: [{ filename: 'a.pdf', size: 10, url: expect.stringMatching(/^https:\/\/sandbox\.invalid\/att/) }],
          },
        },
      ],
    });
  });
});
