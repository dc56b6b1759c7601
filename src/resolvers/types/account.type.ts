import { Field, ObjectType } from 'type-graphql';
import type { AccountSummary } from '../../services/account.service.js';
import { toGlobalId } from '../relay/global-id.js';
import { Node } from './node.type.js';

@ObjectType('Account', { implements: Node, description: 'The account of the API key in use' })
export class AccountType extends Node {
  @Field(() => String, { description: 'The account id of the CLI and REST (a UUID)' })
  restId: string;

  @Field(() => String)
  name: string;
}

export const toAccountType = (account: AccountSummary): AccountType =>
  Object.assign(new AccountType(), { id: toGlobalId('Account', account.id), restId: account.id, name: account.name });
