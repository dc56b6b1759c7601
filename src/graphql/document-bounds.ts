import { GraphQLError, Kind, OperationTypeNode, parse, visit, type DocumentNode } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { DocumentBounds } from '../config.js';
import { scanTokens } from './input-nesting.js';
import { subscriptionOverHttpError } from './subscription-over-http.js';

/**
 * Checks the query text before graphql-js validates it. Validation is linear in the document at best and quadratic
 * for repeated fields at worst (OverlappingFieldsCanBeMerged), and the cost limit is only measured after it: a huge or
 * padded document has to be refused first, with a message that says which bound it broke.
 *
 * Returns the parsed document when it is within bounds, or the error to answer with. The tokens are counted, and
 * their nesting measured (input-nesting.ts), before the parser recurses over them. Syntax errors are left to the
 * caller's own parse (the document comes back undefined with no error).
 */
export function checkDocument(source: string, bounds: DocumentBounds): { document?: DocumentNode; error?: GraphQLError } {
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes > bounds.maxBytes) return { error: boundsError(`The query is ${bytes} bytes long; at most ${bounds.maxBytes} are allowed`) };
  const scanned = scanTokens(source, bounds.maxTokens);
  if (scanned.tooManyTokens)
    return { error: boundsError(`The query has more than ${bounds.maxTokens} tokens; at most ${bounds.maxTokens} are allowed`) };
  if (scanned.error) return { error: scanned.error };
  let document: DocumentNode;
  try {
    // With locations: the document is validated and run on the subscription socket, whose errors point into it.
    document = parse(source, { maxTokens: bounds.maxTokens });
  } catch {
    return {};
  }
  let aliases = 0;
  let spreads = 0;
  visit(document, {
    Field: (node) => void (node.alias && aliases++),
    FragmentSpread: () => void spreads++,
  });
  if (aliases > bounds.maxAliases)
    return { error: boundsError(`The query has ${aliases} aliases; at most ${bounds.maxAliases} are allowed`) };
  if (spreads > bounds.maxFragmentSpreads) {
    return { error: boundsError(`The query has ${spreads} fragment spreads; at most ${bounds.maxFragmentSpreads} are allowed`) };
  }
  return { document };
}

/** The operations of a query text within bounds, by name and type (none when it does not parse). */
type Operations = ReadonlyArray<{ name: string | undefined; type: OperationTypeNode }>;

/** Verdicts by query text, so a query sent again is not parsed twice (Apollo keeps its own parsed copy). */
export class DocumentGuard {
  private readonly verdicts = new LRUCache<string, GraphQLError | Operations>({
    maxSize: 8 * 1024 * 1024,
    sizeCalculation: (_v, key) => key.length || 1,
  });

  constructor(private readonly bounds: DocumentBounds) {}

  /** The error that refuses this query text over HTTP, if any: a bound it breaks, or the subscription it selects. */
  refusal(source: string, operationName?: string | null): GraphQLError | undefined {
    let known = this.verdicts.get(source);
    if (known === undefined) {
      const { error, document } = checkDocument(source, this.bounds);
      known = error ?? operationsOf(document);
      // Over-long texts are not kept: their verdict is cheap to find again and they would crowd out the rest.
      if (source.length <= this.bounds.maxBytes) this.verdicts.set(source, known);
    }
    if (known instanceof GraphQLError) return known;
    // The operation graphql-js would select: the one named, or the only one.
    const selected = operationName ? known.find((o) => o.name === operationName) : known.length === 1 ? known[0] : undefined;
    return selected?.type === OperationTypeNode.SUBSCRIPTION ? subscriptionOverHttpError() : undefined;
  }
}

const operationsOf = (document: DocumentNode | undefined): Operations =>
  (document?.definitions ?? []).flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION ? [{ name: d.name?.value, type: d.operation }] : []));

const boundsError = (message: string) => new GraphQLError(message, { extensions: { code: 'invalid_request', http: { status: 400 } } });
