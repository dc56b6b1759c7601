import { join } from 'node:path';
import { startBuiltService, stopService } from './built-service.js';
import { monotonicMicros, readProfileCategories, type CategoryTime } from './cpu-profile.js';
import { runLoad, type LoadResult } from './load.js';

export interface ServiceProfile {
  categories: CategoryTime[];
  load: LoadResult;
}

export interface ProfileLoad {
  connections: number;
  acceptEncoding?: 'gzip' | 'identity';
}

/** Serves `path` under `load` from a built service run under `--cpu-prof`, and splits its main-thread time. */
export async function profileService(
  env: Record<string, string>,
  path: string,
  apiKey: string,
  dir: string,
  seconds: number,
  { connections, acceptEncoding }: ProfileLoad = { connections: 1 },
): Promise<ServiceProfile> {
  const profileDir = join(dir, 'cpu-profile');
  const service = await startBuiltService(env, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
  let window: [number, number];
  let load: LoadResult;
  try {
    // The profile counts the measured window only: after the warm-up, on the same connections.
    let from = 0;
    const onMeasuring = () => {
      from = monotonicMicros();
    };
    load = await runLoad({
      url: `${service.url}${path}`,
      apiKey,
      connections,
      acceptEncoding,
      serverPid: service.pid,
      warmUpSeconds: 2,
      seconds,
      onMeasuring,
    });
    window = [from, monotonicMicros()];
  } finally {
    // The profile is written when the process exits.
    await stopService(service);
  }
  return { categories: readProfileCategories(profileDir, ...window), load };
}
