import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { accountInput } from '../services/account.input.js';
import { UpdateAccountInput, UpdateAccountPayload } from './account.inputs.js';
import { requireAccount, type GraphqlContext } from './context.js';
import { toAccountType } from './types/account.type.js';
import { parseInput } from './validate-input.js';

/** The account's own settings (its name). */
@Resolver()
export class AccountMutations {
  @Mutation(() => UpdateAccountPayload, { description: 'Rename the caller’s account' })
  async updateAccount(
    @Arg('input', () => UpdateAccountInput, { description: 'The new name' }) input: UpdateAccountInput,
    @Ctx() context: GraphqlContext,
  ): Promise<UpdateAccountPayload> {
    const account = requireAccount(context);
    const { name } = parseInput(accountInput.rename, { name: input.name });
    const renamed = await context.services.accounts.rename(account.id, name);
    return { clientMutationId: input.clientMutationId ?? null, viewer: toAccountType(renamed) };
  }
}
