/**
 * A list field's items kept as the JSON text they are stored in, with the keys each item has in that text, in order.
 * The GraphQL executor splices the text into the response as it is when the query selects exactly those keys, in
 * that order (src/graphql/execution); anything else iterates it, which parses the text once.
 */
export class PreShapedList<T> implements Iterable<T> {
  private parsed: T[] | undefined;
  private encoded: Buffer | undefined;

  constructor(
    /** A JSON array of objects, each with exactly `keys` in this order and values already as GraphQL outputs them. */
    readonly json: string,
    readonly keys: readonly string[],
  ) {}

  /** The text as UTF-8, encoded once. */
  get bytes(): Buffer {
    return (this.encoded ??= Buffer.from(this.json));
  }

  get items(): T[] {
    return (this.parsed ??= JSON.parse(this.json) as T[]);
  }

  [Symbol.iterator](): Iterator<T> {
    return this.items[Symbol.iterator]();
  }
}
