import { Arg, Args, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import { notFound } from '../errors.js';
import { accountInput } from '../services/account.input.js';
import { CreateApiKeyInput, CreateApiKeyPayload, RevokeApiKeyInput, RevokeApiKeyPayload } from './api-key.inputs.js';
import { requireAccount, type GraphqlContext } from './context.js';
import { accountListCursors, accountListEdge, accountListSource } from './relay/account-lists.js';
import { ConnectionArgs } from './relay/connection.type.js';
import { connectionCost } from './relay/cost.js';
import { restIdOf, toGlobalId } from './relay/global-id.js';
import { paginate } from './relay/paginate.js';
import { AccountType } from './types/account.type.js';
import { ApiKeyConnection, toApiKeyType } from './types/api-key.type.js';
import { parseInput } from './validate-input.js';

const LIST_PAGE = 50;

/** The account's API keys for the settings page: `viewer.apiKeys`, createApiKey, revokeApiKey. */
@Resolver(() => AccountType)
export class ApiKeyResolver {
  @FieldResolver(() => ApiKeyConnection, {
    description: 'The account’s working API keys, oldest first',
    complexity: connectionCost(LIST_PAGE),
  })
  async apiKeys(
    @Root() account: AccountType,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Ctx() context: GraphqlContext,
  ): Promise<InstanceType<typeof ApiKeyConnection>> {
    const keys = (await context.services.accounts.activeKeys(account.restId)).map(toApiKeyType);
    return paginate(args, accountListSource(keys), accountListCursors(context.services.cursors, 'api-keys', account.restId), LIST_PAGE);
  }

  @Mutation(() => CreateApiKeyPayload, {
    description:
      'Make an API key for the caller’s account; the payload shows the key once. Refused with conflict past the account’s quota of working keys (MAX_API_KEYS_PER_ACCOUNT, default 50)',
  })
  async createApiKey(
    @Arg('input', () => CreateApiKeyInput, { description: 'The key’s name' }) input: CreateApiKeyInput,
    @Ctx() context: GraphqlContext,
  ): Promise<CreateApiKeyPayload> {
    const account = requireAccount(context);
    const { name } = parseInput(accountInput.createKey, { name: input.name });
    const { key, apiKey } = await context.services.accounts.createKey(account.id, name);
    const node = toApiKeyType(key);
    return {
      clientMutationId: input.clientMutationId ?? null,
      key: apiKey,
      apiKey: node,
      apiKeyEdge: accountListEdge(context.services.cursors, 'api-keys', account.id, node),
    };
  }

  @Mutation(() => RevokeApiKeyPayload, { description: 'Revoke one of the account’s API keys (also the one in use, if any)' })
  async revokeApiKey(
    @Arg('input', () => RevokeApiKeyInput, { description: 'The key to revoke' }) input: RevokeApiKeyInput,
    @Ctx() context: GraphqlContext,
  ): Promise<RevokeApiKeyPayload> {
    const account = requireAccount(context);
    const keyId = restIdOf(input.id, 'ApiKey');
    if (!keyId) throw notFound('API key');
    const revoked = await context.services.accounts.revokeAccountKey(account.id, keyId);
    return { clientMutationId: input.clientMutationId ?? null, deletedId: toGlobalId('ApiKey', revoked.id) };
  }
}
