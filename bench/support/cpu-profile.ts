import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface CategoryTime {
  category: string;
  ms: number;
}

/** Rules tried from a sample's own frame up through its callers; the nearest frame that matches names the category. */
const RULES: [string, (frame: ProfileNode['callFrame']) => boolean][] = [
  ['idle', (f) => f.functionName === '(idle)'],
  ['garbage collection', (f) => f.functionName === '(garbage collector)'],
  ['socket write (writev and friends)', (f) => f.url === '' && /^write(v|Buffer|Utf8String|Latin1String)$/.test(f.functionName)],
  ['SQL query (better-sqlite3, rows to JS strings)', (f) => f.url.includes('driver/better-sqlite3')],
  ['UTF-8 encoding of the body (Buffer.from)', (f) => f.url === 'node:buffer'],
  ['JSON body building (usage.routes, usage.mappers)', (f) => /rest\/usage\.(routes|mappers)\.js$/.test(f.url)],
  ['TypeORM (query building, result handling)', (f) => f.url.includes('/typeorm/')],
  ['logging (pino, request log)', (f) => f.url.includes('/pino') || f.url.endsWith('/http/request-log.js')],
  ['HTTP, Express and middleware', (f) => /node:_http|\/(express|router|express-rate-limit|body-parser)\/|\/src\/auth\//.test(f.url)],
];

/**
 * Main-thread time by category from the V8 CPU profile that `--cpu-prof` wrote into `dir`, counting only samples
 * between `fromUs` and `toUs`. Profile timestamps are CLOCK_MONOTONIC microseconds, as is process.hrtime here.
 */
export function readProfileCategories(dir: string, fromUs: number, toUs: number): CategoryTime[] {
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`No .cpuprofile was written to ${dir}`);
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const categoryOf = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      const rule = RULES.find(([, matches]) => matches(nodes.get(at!)!.callFrame));
      if (rule) return rule[0];
    }
    return 'other';
  };
  const times = new Map<string, number>();
  let now = profile.startTime;
  profile.samples.forEach((id, index) => {
    now += profile.timeDeltas[index];
    if (now < fromUs || now > toUs) return;
    const category = categoryOf(id);
    times.set(category, (times.get(category) ?? 0) + profile.timeDeltas[index] / 1000);
  });
  return [...times].map(([category, ms]) => ({ category, ms })).sort((a, b) => b.ms - a.ms);
}

export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);
