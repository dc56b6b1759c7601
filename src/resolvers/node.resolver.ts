import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import { invalidRequest } from '../errors.js';
import type { GraphqlContext } from './context.js';
import { fetchNode } from './node-fetchers.js';
import { perIdCost } from './relay/cost.js';
import { MAX_PAGE_SIZE } from './relay/paginate.js';
import { Node } from './types/node.type.js';

/** Relay Global Object Identification: refetch any object by its global id. */
@Resolver()
export class NodeResolver {
  @Query(() => Node, { nullable: true, description: 'The object with this global id; null when missing or not the caller’s' })
  async node(
    @Arg('id', () => ID, { description: 'A global id, from the `id` field of any Node' }) id: string,
    @Ctx() context: GraphqlContext,
  ): Promise<Node | null> {
    return fetchNode(context, id);
  }

  @Query(() => [Node], {
    nullable: 'items',
    description: `The objects with these global ids (at most ${MAX_PAGE_SIZE}), in the same order; null for each missing one`,
    complexity: perIdCost,
  })
  async nodes(
    @Arg('ids', () => [ID], { description: `Global ids, at most ${MAX_PAGE_SIZE}` }) ids: string[],
    @Ctx() context: GraphqlContext,
  ): Promise<Array<Node | null>> {
    if (ids.length > MAX_PAGE_SIZE) throw invalidRequest(`ids: at most ${MAX_PAGE_SIZE}`);
    return Promise.all(ids.map((id) => fetchNode(context, id)));
  }
}
