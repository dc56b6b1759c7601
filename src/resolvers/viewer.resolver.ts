import { Ctx, Query, Resolver } from 'type-graphql';
import { requireAccount, type GraphqlContext } from './context.js';
import { AccountType, toAccountType } from './types/account.type.js';

@Resolver()
export class ViewerResolver {
  @Query(() => AccountType, { description: 'The account of the API key in use' })
  viewer(@Ctx() context: GraphqlContext): AccountType {
    return toAccountType(requireAccount(context));
  }
}
