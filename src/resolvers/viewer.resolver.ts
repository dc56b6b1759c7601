import { Ctx, Query, Resolver } from 'type-graphql';
import { requireAccount, type GraphqlContext } from './context.js';
import { AccountType, toAccountType } from './types/account.type.js';

@Resolver()
export class ViewerResolver {
  @Query(() => AccountType, { description: 'The account of the API key in use' })
  async viewer(@Ctx() context: GraphqlContext): Promise<AccountType> {
    // Read again: the caller was authenticated from a cache that another process's rename does not reach.
    return toAccountType(await context.services.accounts.require(requireAccount(context).id));
  }
}
