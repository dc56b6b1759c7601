import { Field, InputType, ObjectType } from 'type-graphql';
import { AccountType } from './types/account.type.js';

@InputType('UpdateAccountInput', { description: 'New values for the caller’s account' })
export class UpdateAccountInput {
  @Field(() => String, { nullable: true, description: 'Any string of yours; the payload echoes it, to match answers to requests (Relay)' })
  clientMutationId?: string | null;

  @Field(() => String, { description: 'The account’s new name, 1–255 characters (trimmed)' })
  name: string;
}

@ObjectType('UpdateAccountPayload', { description: 'The account after updateAccount' })
export class UpdateAccountPayload {
  @Field(() => String, { nullable: true, description: 'The input’s clientMutationId; null when none was sent' })
  clientMutationId: string | null;

  @Field(() => AccountType, { description: 'The account with its new name' })
  viewer: AccountType;
}
