/**
 * JSON text that is already rendered, to be spliced into a response as it is (what JSON.rawJSON does on newer
 * Node): a page of stored rows goes out without parsing its stored JSON only to stringify it again.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON.stringify of an object whose top-level values may be RawJson; undefined values are left out, as JSON.stringify does. */
export function jsonWithRaw(value: Record<string, unknown>): string {
  const members: string[] = [];
  for (const [key, member] of Object.entries(value)) {
    if (member === undefined) continue;
    members.push(`${JSON.stringify(key)}:${member instanceof RawJson ? member.text : JSON.stringify(member)}`);
  }
  return `{${members.join(',')}}`;
}
