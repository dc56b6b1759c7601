import { Field, ObjectType } from 'type-graphql';
import type { AccountSummary } from '../../services/account.service.js';
import { toGlobalId } from '../relay/global-id.js';
import { Node } from './node.type.js';

@ObjectType('Account', {
  implements: Node,
  description: 'A tenant of the service: it owns API keys, tracked bases, monitoring configs, webhooks and one upstream connection',
})
export class AccountType extends Node {
  @Field(() => String, { description: 'The account id of the CLI and REST (a UUID)' })
  restId: string;

  @Field(() => String, { description: 'The account’s name as created (`account create --name`), 1–255 characters' })
  name: string;
}

export const toAccountType = (account: AccountSummary): AccountType =>
  Object.assign(new AccountType(), { id: toGlobalId('Account', account.id), restId: account.id, name: account.name });
