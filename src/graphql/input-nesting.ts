import { GraphQLError, Lexer, Source, TokenKind } from 'graphql';

/**
 * How deep lists and objects may nest in a request's inputs: its variables and extensions, and the argument values
 * written in the query. Every input of the schema nests three levels at most; graphql-js, the cost check and the
 * cache keys walk inputs recursively, and a few thousand levels overflow the stack.
 */
export const MAX_INPUT_NESTING = 32;

/**
 * How deep selection sets may nest in the query text. Above GRAPHQL_MAX_DEPTH's largest value (100 levels of
 * fields), far below the ~1,500 levels where graphql-js's parser overflows the stack.
 */
export const MAX_SELECTION_NESTING = 128;

/**
 * The refusal of request parameters (a POST body, a GET's parsed `variables` and `extensions`, a graphql-ws
 * subscribe payload) whose values nest deeper than MAX_INPUT_NESTING, counting `variables` itself as the first level.
 * Walks without recursing, and stops at the first value too deep.
 */
export function parameterNestingError(parameters: unknown): GraphQLError | undefined {
  // The parameters object is one level above `variables`.
  return nestsDeeperThan(parameters, MAX_INPUT_NESTING + 1)
    ? nestingError(
        `Variables and extensions nest lists and objects more than ${MAX_INPUT_NESTING} levels deep; at most ${MAX_INPUT_NESTING} are allowed`,
      )
    : undefined;
}

/** Whether a parsed JSON value has arrays or objects nested more than `max` levels (`1` is 0 deep, `[1]` 1). */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<{ value: object; depth: number }> = isNested(value) ? [{ value, depth: 1 }] : [];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    if (entry.depth > max) return true;
    for (const child of Array.isArray(entry.value) ? entry.value : Object.values(entry.value)) {
      if (isNested(child)) stack.push({ value: child, depth: entry.depth + 1 });
    }
  }
  return false;
}

const isNested = (value: unknown): value is object => typeof value === 'object' && value !== null;

export interface TokenScan {
  /** The refusal of a query text that nests too deep, or has more than `maxTokens` tokens. */
  error?: GraphQLError;
  /** Set when the tokens ran over `maxTokens` (the error then says so). */
  tooManyTokens?: boolean;
}

/**
 * Reads the query text's tokens (graphql-js's lexer, which does not recurse) before anything parses it: counts them
 * against `maxTokens` and measures how deep argument values (`[`/`{` inside parentheses) and selection sets (`{`
 * outside) nest. Lexical errors are left to the parse that follows, which stops at the same token.
 */
export function scanTokens(source: string, maxTokens: number): TokenScan {
  const lexer = new Lexer(new Source(source));
  let tokens = 0;
  let inParentheses = false;
  let valueDepth = 0;
  let selectionDepth = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (++tokens > maxTokens) return { tooManyTokens: true };
      switch (token.kind) {
        case TokenKind.PAREN_L:
          inParentheses = true;
          break;
        case TokenKind.PAREN_R:
          [inParentheses, valueDepth] = [false, 0];
          break;
        case TokenKind.BRACKET_L:
        case TokenKind.BRACE_L:
          if (inParentheses || token.kind === TokenKind.BRACKET_L) valueDepth++;
          else selectionDepth++;
          break;
        case TokenKind.BRACKET_R:
        case TokenKind.BRACE_R:
          if (inParentheses || token.kind === TokenKind.BRACKET_R) valueDepth = Math.max(0, valueDepth - 1);
          else selectionDepth = Math.max(0, selectionDepth - 1);
          break;
      }
      if (valueDepth > MAX_INPUT_NESTING) {
        return {
          error: nestingError(
            `The query nests lists and objects in argument values more than ${MAX_INPUT_NESTING} levels deep; at most ${MAX_INPUT_NESTING} are allowed`,
          ),
        };
      }
      if (selectionDepth > MAX_SELECTION_NESTING) {
        return {
          error: nestingError(
            `The query nests selection sets more than ${MAX_SELECTION_NESTING} levels deep; at most ${MAX_SELECTION_NESTING} are allowed`,
          ),
        };
      }
    }
  } catch {
    // A lexical error: the caller's parse reports it.
  }
  return {};
}

const nestingError = (message: string) => new GraphQLError(message, { extensions: { code: 'invalid_request', http: { status: 400 } } });
