import { Field, InputType, ObjectType } from 'type-graphql';
import { AccountType } from './types/account.type.js';
import { ConnectionType } from './types/connection.type.js';

// Relay mutations: one `input` argument, a payload echoing clientMutationId. Values are checked by the REST schemas.

@InputType('StartAirtableOAuthInput')
export class StartAirtableOAuthInput {
  @Field(() => String, { nullable: true })
  clientMutationId?: string | null;
}

@ObjectType('StartAirtableOAuthPayload')
export class StartAirtableOAuthPayload {
  @Field(() => String, { nullable: true })
  clientMutationId: string | null;

  @Field(() => String, { description: 'Open in a browser; valid for 10 minutes, once' })
  authorizeUrl: string;
}

@InputType('ConnectAirtableTokenInput')
export class ConnectAirtableTokenInput {
  @Field(() => String, { nullable: true })
  clientMutationId?: string | null;

  @Field(() => String, { description: 'A personal access token (pat…); checked with the upstream before it is stored' })
  token: string;
}

@ObjectType('ConnectAirtableTokenPayload')
export class ConnectAirtableTokenPayload {
  @Field(() => String, { nullable: true })
  clientMutationId: string | null;

  @Field(() => ConnectionType)
  connection: ConnectionType;

  @Field(() => AccountType)
  viewer: AccountType;
}

@InputType('DisconnectAirtableInput')
export class DisconnectAirtableInput {
  @Field(() => String, { nullable: true })
  clientMutationId?: string | null;
}

@ObjectType('DisconnectAirtablePayload')
export class DisconnectAirtablePayload {
  @Field(() => String, { nullable: true })
  clientMutationId: string | null;

  @Field(() => AccountType)
  viewer: AccountType;
}
