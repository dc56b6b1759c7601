import { describe, expect, it } from 'vitest';
import { translatePayload, type TableNames } from '../../src/services/audit/payload-translator.js';

const at = '2026-11-21T09:00:00.000Z';

describe('translatePayload', () => {
  it('maps a source the seed does not list to unknown, and reads the user of client and publicApi changes', () => {
    const names: TableNames = { tblA: 'Orders' };
    const base = { timestamp: at, changedTablesById: { tblA: { destroyedRecordIds: ['recA'] } } };
    const [fromNewSource] = translatePayload({ ...base, actionMetadata: { source: 'aiAgent' } }, 'ach1:1', names);
    expect(fromNewSource).toMatchObject({ source: 'unknown', userEmail: null, userName: null, tableName: 'Orders' });
    const [fromClient] = translatePayload(
      { ...base, actionMetadata: { source: 'client', sourceMetadata: { user: { email: 'a@b.c', name: 'A' } } } },
      'ach1:2',
      names,
    );
    expect(fromClient).toMatchObject({ source: 'client', userEmail: 'a@b.c', userName: 'A', eventType: 'record_delete', recordId: 'recA' });
  });

  it('gives the same positions for the same payload, and learns names from created and renamed tables', () => {
    const names: TableNames = {};
    const payload = {
      timestamp: at,
      actionMetadata: { source: 'publicApi' },
      createdTablesById: {
        tblN: { metadata: { name: 'New', description: null }, fieldsById: { fldX: { name: 'X', type: 'singleLineText' } } },
      },
      changedTablesById: {
        tblN: {
          changedMetadata: { current: { name: 'Renamed' }, previous: { name: 'New' } },
          changedRecordsById: {
            recB: { current: { cellValuesByFieldId: { fldX: 'b', fldY: 2 } }, previous: { cellValuesByFieldId: { fldX: 'a' } } },
          },
        },
      },
    };
    const first = translatePayload(payload, 'ach1:7', names);
    expect(first.map((c) => [c.eventType, c.position])).toEqual([
      ['table_create', 'ach1:7:0'],
      ['table_update', 'ach1:7:1'],
      ['record_update', 'ach1:7:2'],
    ]);
    expect(first[2]).toMatchObject({
      fieldIds: ['fldX', 'fldY'],
      before: { fldX: 'a' },
      after: { fldX: 'b', fldY: 2 },
      tableName: 'Renamed',
    });
    expect(names.tblN).toBe('Renamed');
    expect(translatePayload(payload, 'ach1:7', { ...names }).map((c) => c.position)).toEqual(first.map((c) => c.position));
  });

  it('gives a link change carried in one payload one record update per side', () => {
    const names: TableNames = { tblP: 'Products', tblS: 'Suppliers' };
    const payload = {
      timestamp: at,
      actionMetadata: { source: 'publicApi' },
      changedTablesById: {
        tblP: { changedRecordsById: { recP: { current: { cellValuesByFieldId: { fldLink: [{ id: 'recS', name: 'Nordwind' }] } } } } },
        tblS: { changedRecordsById: { recS: { current: { cellValuesByFieldId: { fldInverse: [{ id: 'recP', name: 'Lamp' }] } } } } },
      },
    };
    const changes = translatePayload(payload, 'ach1:3', names);
    expect(changes.map((c) => [c.eventType, c.tableName, c.recordId, c.fieldIds, c.position])).toEqual([
      ['record_update', 'Products', 'recP', ['fldLink'], 'ach1:3:0'],
      ['record_update', 'Suppliers', 'recS', ['fldInverse'], 'ach1:3:1'],
    ]);
  });

  it('names a destroyed table by its last known name', () => {
    const [change] = translatePayload({ timestamp: at, destroyedTableIds: ['tblZ'] }, 'ach1:9', { tblZ: 'Old' });
    expect(change).toMatchObject({
      eventType: 'table_delete',
      kind: 'schema',
      tableName: 'Old',
      recordId: null,
      before: { name: 'Old' },
      after: null,
    });
  });
});
