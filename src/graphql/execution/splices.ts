import { randomBytes } from 'node:crypto';
import type { FormattedExecutionResult } from 'graphql';

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

/** The JSON texts one execution put into its result; stringifyResult finds them through the result's data. */
export class Splices {
  private readonly texts: string[] = [];

  get used(): boolean {
    return this.texts.length > 0;
  }

  add(json: string): SplicedJson {
    return new SplicedJson(`${PREFIX}${this.texts.push(json) - 1}`);
  }

  text(index: number): string {
    return this.texts[index];
  }
}

const splicesByData = new WeakMap<object, Splices>();

export function attachSplices(data: object, splices: Splices): void {
  splicesByData.set(data, splices);
}

/** Apollo's stringifyResult: JSON.stringify plus a newline, as Apollo's own, with spliced texts put in place. */
export function stringifyResult(result: FormattedExecutionResult): string {
  const splices = result.data ? splicesByData.get(result.data) : undefined;
  return `${splices ? stringifyWithSplices(result, splices) : JSON.stringify(result)}\n`;
}

/** JSON.stringify with the spliced texts of `splices` put in place. */
export function stringifyWithSplices(value: unknown, splices: Splices): string {
  const text = JSON.stringify(value);
  return splices.used ? text.replace(TOKEN, (_, index: string) => splices.text(Number(index))) : text;
}
