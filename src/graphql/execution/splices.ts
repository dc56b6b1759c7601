import { randomBytes } from 'node:crypto';

// A token no stored text can contain: random per process, so a string value cannot forge one.
const PREFIX = `splice_${randomBytes(16).toString('hex')}_`;
const TOKEN = new RegExp(`"${PREFIX}(\\d+)"`, 'g');

/** Stands in the result for JSON text spliced in when the response is written (what JSON.rawJSON does on newer Node). */
class SplicedJson {
  constructor(private readonly token: string) {}

  toJSON(): string {
    return this.token;
  }
}

/**
 * The JSON texts the executions of one HTTP request put into their results, as UTF-8 bytes: Apollo writes the
 * results with tokens in their place, and the HTTP handler puts the bytes in (graphql/http-handler.ts), so a large
 * answer is never built as one string and encoded again.
 */
export class Splices {
  private readonly parts: Buffer[] = [];

  get used(): boolean {
    return this.parts.length > 0;
  }

  add(json: string | Buffer): SplicedJson {
    return new SplicedJson(`${PREFIX}${this.parts.push(typeof json === 'string' ? Buffer.from(json) : json) - 1}`);
  }

  /** A value as JSON bytes, with its spliced texts in place. */
  render(value: unknown): Buffer {
    return this.fill(JSON.stringify(value));
  }

  /** JSON text with every token of these splices replaced by its bytes. */
  fill(text: string): Buffer {
    const chunks: Buffer[] = [];
    let at = 0;
    for (const match of text.matchAll(TOKEN)) {
      chunks.push(Buffer.from(text.slice(at, match.index)), this.parts[Number(match[1])]);
      at = match.index + match[0].length;
    }
    if (at === 0) return Buffer.from(text);
    chunks.push(Buffer.from(text.slice(at)));
    return Buffer.concat(chunks);
  }
}
