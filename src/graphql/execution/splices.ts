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
  private readonly parts: Array<Buffer | Buffer[]> = [];

  get used(): boolean {
    return this.parts.length > 0;
  }

  add(json: string | Buffer): SplicedJson {
    return new SplicedJson(`${PREFIX}${this.parts.push(typeof json === 'string' ? Buffer.from(json) : json) - 1}`);
  }

  /** A JSON array of these texts, written as they are between brackets and commas: one token for a whole page of rows. */
  addList(items: Buffer[]): SplicedJson {
    return new SplicedJson(`${PREFIX}${this.parts.push(items) - 1}`);
  }

  /** A value as JSON bytes, with its spliced texts in place. */
  render(value: unknown): Buffer {
    return Buffer.concat(this.chunks(JSON.stringify(value)));
  }

  /** JSON text as the byte chunks to write, with every token of these splices replaced by its bytes (not copied). */
  chunks(text: string): Buffer[] {
    const chunks: Buffer[] = [];
    let at = 0;
    for (const match of text.matchAll(TOKEN)) {
      if (match.index > at) chunks.push(Buffer.from(text.slice(at, match.index)));
      const part = this.parts[Number(match[1])];
      if (Buffer.isBuffer(part)) chunks.push(part);
      else pushList(chunks, part);
      at = match.index + match[0].length;
    }
    if (at < text.length) chunks.push(Buffer.from(at === 0 ? text : text.slice(at)));
    return chunks;
  }
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

function pushList(chunks: Buffer[], items: Buffer[]): void {
  chunks.push(OPEN);
  for (let i = 0; i < items.length; i++) {
    if (i > 0) chunks.push(COMMA);
    chunks.push(items[i]);
  }
  chunks.push(CLOSE);
}
