import { Field, ObjectType } from 'type-graphql';
import type { UpstreamBase, UpstreamTable } from '../../upstream/types.js';
import { toGlobalId } from '../relay/global-id.js';
import { Node } from './node.type.js';

@ObjectType('AirtableBase', {
  implements: Node,
  description: 'A base the account’s upstream connection can see (REST GET /airtable/bases)',
})
export class AirtableBaseType extends Node {
  @Field(() => String, { description: 'The upstream base id (app…; `id` in REST)' })
  restId: string;

  @Field(() => String, { description: 'The base’s name upstream' })
  name: string;

  @Field(() => String, {
    description: 'What the connection may do in the base, as the upstream says: `none`, `read`, `comment`, `edit` or `create`',
  })
  permissionLevel: string;
}

@ObjectType('AirtableField', { implements: Node, description: 'A field (column) of an upstream table' })
export class AirtableFieldType extends Node {
  @Field(() => String, { description: 'The upstream field id (fld…; `id` in REST): what columnId, fieldIds and the change filter take' })
  restId: string;

  @Field(() => String, { description: 'The field’s name upstream' })
  name: string;

  @Field(() => String, {
    description: 'The upstream field type (`singleLineText`, `multipleAttachments`…); a plain string, as the upstream adds types',
  })
  type: string;
}

@ObjectType('AirtableTable', { implements: Node, description: 'A table of an upstream base (REST GET /airtable/bases/{baseId}/tables)' })
export class AirtableTableType extends Node {
  @Field(() => String, { description: 'The upstream table id (tbl…; `id` in REST): what tableId inputs and filters take' })
  restId: string;

  @Field(() => String, { description: 'The table’s name upstream' })
  name: string;

  @Field(() => String, { description: 'The field id (fld…) of the table’s primary field' })
  primaryFieldId: string;

  @Field(() => [AirtableFieldType], { description: 'Every field of the table, in the upstream’s order' })
  fields: AirtableFieldType[];
}

export const toAirtableBaseType = (base: UpstreamBase): AirtableBaseType =>
  Object.assign(new AirtableBaseType(), {
    id: toGlobalId('AirtableBase', base.id),
    restId: base.id,
    name: base.name,
    permissionLevel: base.permissionLevel,
  });

export const toAirtableTableType = (baseId: string, table: UpstreamTable): AirtableTableType =>
  Object.assign(new AirtableTableType(), {
    id: toGlobalId('AirtableTable', baseId, table.id),
    restId: table.id,
    name: table.name,
    primaryFieldId: table.primaryFieldId,
    fields: table.fields.map((field) =>
      Object.assign(new AirtableFieldType(), {
        id: toGlobalId('AirtableField', baseId, table.id, field.id),
        restId: field.id,
        name: field.name,
        type: field.type,
      }),
    ),
  });
