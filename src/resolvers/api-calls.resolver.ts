import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { apiCallInput } from '../services/usage-insight/api-call.input.js';
import { requireAccount, type GraphqlContext } from './context.js';
import { ApiCallUsageType } from './types/api-call-usage.type.js';
import { parseInput } from './validate-input.js';

@Resolver()
export class ApiCallsResolver {
  // Nullable as the other upstream read-outs: a failure here leaves the rest of a page's operation standing.
  @Query(() => ApiCallUsageType, {
    nullable: true,
    description:
      'The caller’s upstream API calls of a month, with a projection to its end (REST GET /usage/api-calls); null (with an error) when they could not be read',
  })
  async apiCalls(
    @Arg('month', () => String, {
      nullable: true,
      description: 'YYYY-MM (UTC); default: this month. A month still to come is invalid_request',
    })
    month: string | null | undefined,
    @Ctx() context: GraphqlContext,
  ): Promise<ApiCallUsageType> {
    const account = requireAccount(context);
    const query = parseInput(apiCallInput.usage, { month }, 'apiCalls');
    return context.services.apiCalls.month(account.id, query.month);
  }
}
