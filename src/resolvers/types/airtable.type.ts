import { Field, ObjectType } from 'type-graphql';
import type { UpstreamBase, UpstreamTable } from '../../upstream/types.js';
import { toGlobalId } from '../relay/global-id.js';
import { Node } from './node.type.js';

@ObjectType('AirtableBase', { implements: Node, description: 'A base of the connected upstream account' })
export class AirtableBaseType extends Node {
  @Field(() => String, { description: 'The upstream base id (`id` in REST)' })
  restId: string;

  @Field(() => String)
  name: string;

  @Field(() => String)
  permissionLevel: string;
}

@ObjectType('AirtableField', { implements: Node, description: 'A field of an upstream table' })
export class AirtableFieldType extends Node {
  @Field(() => String, { description: 'The upstream field id (`id` in REST)' })
  restId: string;

  @Field(() => String)
  name: string;

  @Field(() => String)
  type: string;
}

@ObjectType('AirtableTable', { implements: Node, description: 'A table of an upstream base' })
export class AirtableTableType extends Node {
  @Field(() => String, { description: 'The upstream table id (`id` in REST)' })
  restId: string;

  @Field(() => String)
  name: string;

  @Field(() => String)
  primaryFieldId: string;

  @Field(() => [AirtableFieldType])
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
