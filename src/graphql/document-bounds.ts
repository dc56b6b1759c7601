import { GraphQLError, parse, visit, type DocumentNode } from 'graphql';
import { LRUCache } from 'lru-cache';

export interface DocumentBounds {
  /** UTF-8 bytes of the query text. */
  maxBytes: number;
  /** Lexical tokens (graphql-js stops parsing past this). */
  maxTokens: number;
  /** Fields given another response name (`a: field`). */
  maxAliases: number;
  /** `...Fragment` spreads, counted where they are written. */
  maxFragmentSpreads: number;
}

/**
 * Checks the query text before graphql-js validates it. Validation is linear in the document at best and quadratic
 * for repeated fields at worst (OverlappingFieldsCanBeMerged), and the cost limit is only measured after it: a huge or
 * padded document has to be refused first, with a message that says which bound it broke.
 *
 * Returns the parsed document when it is within bounds, or the error to answer with. Syntax errors other than the
 * token bound are left to the caller's own parse (the document comes back undefined with no error).
 */
export function checkDocument(source: string, bounds: DocumentBounds): { document?: DocumentNode; error?: GraphQLError } {
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes > bounds.maxBytes) return { error: boundsError(`The query is ${bytes} bytes long; at most ${bounds.maxBytes} are allowed`) };
  let document: DocumentNode;
  try {
    document = parse(source, { maxTokens: bounds.maxTokens, noLocation: true });
  } catch (error) {
    if (error instanceof GraphQLError && / tokens\. Parsing aborted\.$/.test(error.message)) {
      return { error: boundsError(`The query has more than ${bounds.maxTokens} tokens; at most ${bounds.maxTokens} are allowed`) };
    }
    return {};
  }
  let aliases = 0;
  let spreads = 0;
  visit(document, {
    Field: (node) => void (node.alias && aliases++),
    FragmentSpread: () => void spreads++,
  });
  if (aliases > bounds.maxAliases) return { error: boundsError(`The query has ${aliases} aliases; at most ${bounds.maxAliases} are allowed`) };
  if (spreads > bounds.maxFragmentSpreads) {
    return { error: boundsError(`The query has ${spreads} fragment spreads; at most ${bounds.maxFragmentSpreads} are allowed`) };
  }
  return { document };
}

/** Verdicts by query text, so a query sent again is not parsed twice (Apollo keeps its own parsed copy). */
export class DocumentGuard {
  private readonly verdicts = new LRUCache<string, GraphQLError | true>({ maxSize: 8 * 1024 * 1024, sizeCalculation: (_v, key) => key.length || 1 });

  constructor(private readonly bounds: DocumentBounds) {}

  /** The error that refuses this query text, if any. */
  refusal(source: string): GraphQLError | undefined {
    const known = this.verdicts.get(source);
    if (known !== undefined) return known === true ? undefined : known;
    const { error } = checkDocument(source, this.bounds);
    // Over-long texts are not kept: their verdict is cheap to find again and they would crowd out the rest.
    if (source.length <= this.bounds.maxBytes) this.verdicts.set(source, error ?? true);
    return error;
  }
}

const boundsError = (message: string) => new GraphQLError(message, { extensions: { code: 'invalid_request', http: { status: 400 } } });
