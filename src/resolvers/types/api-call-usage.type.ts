import { SafeIntResolver } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('ApiCallsByPurpose', { description: 'A month’s upstream requests by why they were sent' })
export class ApiCallsByPurposeType {
  @Field(() => SafeIntResolver, { description: 'Usage counts' })
  count: number;

  @Field(() => SafeIntResolver, { description: 'Reading changes, writing the Changes table, checking monitoring configs' })
  audit: number;

  @Field(() => SafeIntResolver, { description: 'Creating, refreshing, listing and deleting upstream webhooks' })
  webhooks: number;

  @Field(() => SafeIntResolver, { description: 'Everything else: base and table look-ups, connection checks' })
  helpers: number;
}

@ObjectType('ApiCallsOfBase', { description: 'A month’s upstream requests to one base' })
export class ApiCallsOfBaseType {
  @Field(() => ID, { description: 'The upstream base id' })
  baseId: string;

  @Field(() => SafeIntResolver, { description: 'Requests sent to it' })
  calls: number;
}

@ObjectType('ApiCallUsage', {
  description:
    'Upstream requests sent with the account’s upstream user in a UTC month, retries and 429s included, as the platform counts them (REST GET /usage/api-calls)',
})
export class ApiCallUsageType {
  @Field(() => String, { description: 'The month, YYYY-MM (UTC)' })
  month: string;

  @Field(() => SafeIntResolver, { description: 'All requests of the month' })
  total: number;

  @Field(() => SafeIntResolver, {
    description:
      'This month: the total at the pace so far by the month’s end (total × month length ÷ time elapsed, at least one day); a past month: its total',
  })
  projected: number;

  @Field(() => ApiCallsByPurposeType, { description: 'The requests by purpose' })
  byPurpose: ApiCallsByPurposeType;

  @Field(() => [ApiCallsOfBaseType], { description: 'Requests to each base, most first; requests outside a base are only in total' })
  byBase: ApiCallsOfBaseType[];
}
