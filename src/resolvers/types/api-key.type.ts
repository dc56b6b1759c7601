import { DateTimeResolver } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import type { KeySummary } from '../../services/account.service.js';
import { connectionType } from '../relay/connection.type.js';
import { toGlobalId } from '../relay/global-id.js';
import { Node } from './node.type.js';

/** A working API key of the account, as the settings page lists it: never the key itself nor its hash. */
@ObjectType('ApiKey', { implements: Node, description: 'An API key of the account (the key itself is shown only by createApiKey)' })
export class ApiKeyType extends Node {
  @Field(() => String, { description: 'The key id of the CLI (`key revoke --key-id`), a UUID' })
  restId: string;

  @Field(() => String, { nullable: true, description: 'What the key is for, as given when it was made; null for keys made by the CLI' })
  name: string | null;

  @Field(() => String, { description: 'The key’s first characters (sk_ and a few more), to tell keys apart' })
  prefix: string;

  @Field(() => DateTimeResolver, { description: 'When the key was made (UTC)' })
  createdAt: Date;

  @Field(() => DateTimeResolver, {
    nullable: true,
    description: 'When the key last authenticated a request (UTC, up to a minute late); null: never',
  })
  lastUsedAt: Date | null;
}

export const toApiKeyType = (key: KeySummary): ApiKeyType =>
  Object.assign(new ApiKeyType(), {
    id: toGlobalId('ApiKey', key.id),
    restId: key.id,
    name: key.name,
    prefix: key.prefix,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
  });

export const ApiKeyConnection = connectionType('ApiKey', ApiKeyType);
export type ApiKeyConnection = InstanceType<typeof ApiKeyConnection>;
export const ApiKeyEdge = ApiKeyConnection.Edge;
export type ApiKeyEdge = InstanceType<typeof ApiKeyEdge>;
