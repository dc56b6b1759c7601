import { Field, InputType, ObjectType } from 'type-graphql';
import { AccountType } from './types/account.type.js';
import { ConnectionType } from './types/connection.type.js';

// Relay mutations: one `input` argument, a payload echoing clientMutationId. Values are checked by the REST schemas.

@InputType('StartAirtableOAuthInput', { description: 'Starts connecting with OAuth 2.0 (nothing to give but clientMutationId)' })
export class StartAirtableOAuthInput {
  @Field(() => String, { nullable: true, description: 'Any string of yours; the payload echoes it, to match answers to requests (Relay)' })
  clientMutationId?: string | null;
}

@ObjectType('StartAirtableOAuthPayload', { description: 'Where to send the user’s browser to grant access' })
export class StartAirtableOAuthPayload {
  @Field(() => String, { nullable: true, description: 'The input’s clientMutationId; null when none was sent' })
  clientMutationId: string | null;

  @Field(() => String, {
    description: 'The upstream’s authorize page (PKCE S256, single-use state): open it in a browser within 10 minutes',
  })
  authorizeUrl: string;
}

@InputType('ConnectAirtableTokenInput', { description: 'A personal access token to connect the account with (REST PUT /connection body)' })
export class ConnectAirtableTokenInput {
  @Field(() => String, { nullable: true, description: 'Any string of yours; the payload echoes it, to match answers to requests (Relay)' })
  clientMutationId?: string | null;

  @Field(() => String, { description: 'A personal access token (pat…); checked with the upstream before it is stored' })
  token: string;
}

@ObjectType('ConnectAirtableTokenPayload', { description: 'The connection stored by connectAirtableToken' })
export class ConnectAirtableTokenPayload {
  @Field(() => String, { nullable: true, description: 'The input’s clientMutationId; null when none was sent' })
  clientMutationId: string | null;

  @Field(() => ConnectionType, { description: 'The account’s connection, now with this token' })
  connection: ConnectionType;

  @Field(() => AccountType, { description: 'The account, to refetch what depends on its connection' })
  viewer: AccountType;
}

@InputType('DisconnectAirtableInput', { description: 'Forgets the account’s upstream connection (nothing to give but clientMutationId)' })
export class DisconnectAirtableInput {
  @Field(() => String, { nullable: true, description: 'Any string of yours; the payload echoes it, to match answers to requests (Relay)' })
  clientMutationId?: string | null;
}

@ObjectType('DisconnectAirtablePayload', { description: 'The account after disconnectAirtable' })
export class DisconnectAirtablePayload {
  @Field(() => String, { nullable: true, description: 'The input’s clientMutationId; null when none was sent' })
  clientMutationId: string | null;

  @Field(() => AccountType, { description: 'The account, now without a connection of its own' })
  viewer: AccountType;
}
