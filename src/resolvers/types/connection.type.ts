import { DateTimeResolver } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import type { UpstreamConnectionKind, UpstreamConnectionStatus } from '../../entities/index.js';
import type { ConnectionView } from '../../services/connections/connection.service.js';
import { serviceEnum } from './graphql-enum.js';

export const ConnectionKindEnum = serviceEnum<UpstreamConnectionKind>(
  'UpstreamConnectionKind',
  'How an account is connected to the upstream. REST spells the values in lower case (`oauth`).',
  {
    oauth: 'An OAuth 2.0 grant (startAirtableOAuth); its access token is renewed by the service',
    token: 'A personal access token (connectAirtableToken)',
  },
);

export const ConnectionStatusEnum = serviceEnum<UpstreamConnectionStatus>(
  'UpstreamConnectionStatus',
  'Whether the upstream still accepts a connection. REST spells the values in lower case (`needs_reauth`).',
  {
    active: 'The connection works (as far as its last use showed)',
    needs_reauth:
      'The upstream refused the grant or token (see lastError): the account’s scheduled counts, Changes-table writes and forwarded changes pause until it connects again',
  },
);

@ObjectType('UpstreamConnection', {
  description: 'The account’s own connection to the upstream platform (REST GET /connection); never its tokens',
})
export class ConnectionType {
  @Field(() => ConnectionKindEnum, { description: 'OAuth grant or personal access token' })
  kind: UpstreamConnectionKind;

  @Field(() => String, { description: 'The upstream user (usr…) the connection acts as' })
  upstreamUserId: string;

  @Field(() => String, { nullable: true, description: 'That user’s e-mail; null when the upstream does not tell it' })
  email: string | null;

  @Field(() => [String], { nullable: true, description: 'Granted scopes (OAuth); null for personal access tokens' })
  scopes: string[] | null;

  @Field(() => ConnectionStatusEnum, { description: 'Whether the upstream still accepts it' })
  status: UpstreamConnectionStatus;

  @Field(() => DateTimeResolver, { description: 'When the account connected (UTC)' })
  connectedAt: Date;

  @Field(() => String, { nullable: true, description: 'Why the connection needs re-authorisation; null while it is active' })
  lastError: string | null;
}

export const toConnectionType = (view: ConnectionView): ConnectionType => Object.assign(new ConnectionType(), view);

@ObjectType('SharedUpstreamConnection', {
  description:
    'The deployment’s shared upstream token (AIRTABLE_TOKEN in single-team mode, the sandbox’s demo user), acting for an account that has no connection of its own',
})
export class SharedConnectionType {
  @Field(() => String, { description: 'The upstream user the shared token acts as (usr…)' })
  upstreamUserId: string;

  @Field(() => String, { nullable: true, description: 'That user’s e-mail, when the upstream tells it' })
  email: string | null;
}
