import { DateTimeResolver } from 'graphql-scalars';
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import type { UpstreamConnectionKind, UpstreamConnectionStatus } from '../../entities/index.js';
import type { ConnectionView } from '../../services/connections/connection.service.js';
import { enumOf } from './change-enums.js';

export const ConnectionKindEnum = enumOf<UpstreamConnectionKind>(['oauth', 'token']);
registerEnumType(ConnectionKindEnum, { name: 'UpstreamConnectionKind', description: 'oauth: an OAuth 2.0 grant; token: a personal access token' });

export const ConnectionStatusEnum = enumOf<UpstreamConnectionStatus>(['active', 'needs_reauth']);
registerEnumType(ConnectionStatusEnum, {
  name: 'UpstreamConnectionStatus',
  description: 'needs_reauth: the upstream refused the grant or token; the account’s scheduled work pauses until it reconnects',
});

@ObjectType('UpstreamConnection', { description: 'The account’s own connection to the upstream platform (REST GET /connection); never its tokens' })
export class ConnectionType {
  @Field(() => ConnectionKindEnum)
  kind: UpstreamConnectionKind;

  @Field(() => String, { description: 'The upstream user (usr…) the connection acts as' })
  upstreamUserId: string;

  @Field(() => String, { nullable: true, description: 'That user’s e-mail, when the upstream tells it' })
  email: string | null;

  @Field(() => [String], { nullable: true, description: 'Granted scopes (OAuth); null for personal access tokens' })
  scopes: string[] | null;

  @Field(() => ConnectionStatusEnum)
  status: UpstreamConnectionStatus;

  @Field(() => DateTimeResolver)
  connectedAt: Date;

  @Field(() => String, { nullable: true, description: 'Why the connection needs re-authorisation' })
  lastError: string | null;
}

export const toConnectionType = (view: ConnectionView): ConnectionType => Object.assign(new ConnectionType(), view);
