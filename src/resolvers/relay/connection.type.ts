import { ArgsType, Field, Int, ObjectType, type ClassType } from 'type-graphql';
import { MAX_PAGE_SIZE } from './paginate.js';

@ObjectType('PageInfo', { description: 'Relay Cursor Connections page information' })
export class PageInfoType {
  @Field(() => Boolean, { description: 'Whether items follow the last edge (exact, also when paging backward)' })
  hasNextPage: boolean;

  @Field(() => Boolean, { description: 'Whether items precede the first edge (exact, also when paging forward)' })
  hasPreviousPage: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'Cursor of the first edge, to page backward with `before`; null when the page is empty',
  })
  startCursor: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Cursor of the last edge, to page forward with `after`; null when the page is empty',
  })
  endCursor: string | null;
}

/** first/after pages forward, last/before backward; not both first and last; at most 100. */
@ArgsType()
export class ConnectionArgs {
  @Field(() => Int, {
    nullable: true,
    description: `Items from the start of the window (0–${MAX_PAGE_SIZE}); without first and last: 50 (30 snapshot days)`,
  })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'Only items after this cursor' })
  after?: string | null;

  @Field(() => Int, { nullable: true, description: `Items from the end of the window (0–${MAX_PAGE_SIZE})` })
  last?: number | null;

  @Field(() => String, { nullable: true, description: 'Only items before this cursor' })
  before?: string | null;
}

/**
 * `XConnection` and `XEdge` object types for a node type. Each call makes new classes with their own GraphQL
 * names (type-graphql 2 has no abstract generic types), so monitoring configs, changes and webhooks reuse it.
 */
export function connectionType<T extends object>(name: string, node: ClassType<T>) {
  @ObjectType(`${name}Edge`, { description: `A ${name} with its cursor in the list` })
  class Edge {
    @Field(() => String, { description: 'Opaque cursor of this edge: pass it as `after` (or as `before` where the field takes one)' })
    cursor: string;

    @Field(() => node, { description: `The ${name} at this place in the list` })
    node: T;
  }

  @ObjectType(`${name}Connection`, { description: `A page of ${name} items (Relay cursor connection)` })
  class Connection {
    /** The edge type, for payloads that hand out one edge (create mutations, for Relay's @appendEdge). */
    static readonly Edge = Edge;
    @Field(() => [Edge], { description: 'The page’s items with their cursors, in the list’s order' })
    edges: Edge[];

    @Field(() => [node], { description: 'The nodes of `edges`, for clients that need no cursors' })
    nodes: T[];

    @Field(() => PageInfoType, { description: 'Cursors of the page’s ends, and whether items lie beyond them' })
    pageInfo: PageInfoType;

    // A getter on the page object (paginate): it runs its count only when the field is selected. Declared a Promise
    // by hand too, so its resolver (which awaits it) is kept by dropPlainFieldResolvers also where the transpiler
    // emits no decorator metadata (tsx's esbuild: `npm run dev`, `npm run bench`), else graphql-jit serialises the
    // Promise itself ("Int cannot represent non-integer value: {}").
    @Reflect.metadata('design:type', Promise)
    @Field(() => Int, {
      description: 'How many items the whole connection holds with its filters, whatever the cursors and page size; exact',
    })
    totalCount: Promise<number>;
  }

  return Connection;
}
