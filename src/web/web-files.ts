import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/web of the package this module belongs to, whether it runs from src (tsx, vitest) or from dist/src. */
export function webBuildDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above src/web');
    dir = parent;
  }
  return join(dir, 'dist', 'web');
}
