import { Arg, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import { invalidRequest, notFound } from '../errors.js';
import { UpstreamBaseId } from '../services/input-fields.js';
import { requireAccount, type GraphqlContext } from './context.js';
import { restIdOf } from './relay/global-id.js';
import { AirtableBaseType, AirtableTableType, toAirtableBaseType, toAirtableTableType } from './types/airtable.type.js';

/** Id look-ups in the connected upstream account (REST /airtable/…). */
@Resolver(() => AirtableBaseType)
export class AirtableResolver {
  // Root fields read from the upstream are nullable: when it fails, the rest of the operation still answers.
  @Query(() => [AirtableBaseType], {
    nullable: true,
    description: 'Bases of the connected upstream account; null (with an error) when the upstream could not be read',
  })
  async airtableBases(@Ctx() context: GraphqlContext): Promise<AirtableBaseType[]> {
    requireAccount(context);
    return (await context.loaders.airtableBases()).map(toAirtableBaseType);
  }

  @Query(() => [AirtableTableType], {
    nullable: true,
    description: 'Tables and fields of an upstream base (upstream id or global id); null (with an error) when they could not be read',
  })
  async airtableTables(
    @Arg('baseId', () => ID, { description: 'The upstream base id (app…) or an AirtableBase global id' }) baseId: string,
    @Ctx() context: GraphqlContext,
  ): Promise<AirtableTableType[]> {
    requireAccount(context);
    const id = restIdOf(baseId, 'AirtableBase');
    if (id === undefined) throw notFound('Upstream base');
    const checked = UpstreamBaseId.safeParse(id);
    if (!checked.success) throw invalidRequest(`baseId: ${checked.error.issues[0].message}`);
    return tablesOf(context, id);
  }

  @FieldResolver(() => [AirtableTableType], { description: 'The base’s tables with their fields (one schema read upstream)' })
  async tables(@Root() base: AirtableBaseType, @Ctx() context: GraphqlContext): Promise<AirtableTableType[]> {
    return tablesOf(context, base.restId);
  }
}

async function tablesOf(context: GraphqlContext, baseId: string): Promise<AirtableTableType[]> {
  const tables = await context.loaders.airtableTables.load(baseId);
  if (!tables) throw notFound('Upstream base');
  return tables.map((table) => toAirtableTableType(baseId, table));
}
