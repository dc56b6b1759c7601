import { join } from 'node:path';
import { startBuiltService, stopService } from './built-service.js';
import { monotonicMicros, readProfileCategories, type CategoryTime } from './cpu-profile.js';
import { runLoad, type LoadResult } from './load.js';

export interface ServiceProfile {
  categories: CategoryTime[];
  load: LoadResult;
}

/** Serves `path` to one client at a time from a built service run under `--cpu-prof`, and splits its main-thread time. */
export async function profileService(
  env: Record<string, string>,
  path: string,
  apiKey: string,
  dir: string,
  seconds: number,
): Promise<ServiceProfile> {
  const profileDir = join(dir, 'cpu-profile');
  const service = await startBuiltService(env, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
  let window: [number, number];
  let load: LoadResult;
  try {
    const options = { url: `${service.url}${path}`, apiKey, connections: 1, serverPid: service.pid, warmUpSeconds: 0 };
    await runLoad({ ...options, seconds: 2 });
    const from = monotonicMicros();
    load = await runLoad({ ...options, seconds });
    window = [from, monotonicMicros()];
  } finally {
    // The profile is written when the process exits.
    await stopService(service);
  }
  return { categories: readProfileCategories(profileDir, ...window), load };
}
