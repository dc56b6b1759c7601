import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildWeb } from '../../web/build.mjs';
import { ROOT } from './processes.js';

/**
 * `npm run build` once for all the test files that start the built service (plain node: decorators, import cycles,
 * one graphql copy), instead of once per file: `tsc -p tsconfig.build.json` into a folder named by a digest of what
 * it compiles, and the web build into dist/web (which the built server finds from any folder under the package).
 * Inside node_modules, so that packages resolve as they do for dist/.
 *
 * Files of one run (in several workers) share one build: the first builds while holding a lock directory, the others
 * wait for its stamp. A later run with the same sources reuses it; changed sources get a new folder.
 */
const CACHE = join(ROOT, 'node_modules/.cache');
const PREFIX = 'basewatch-build-';
const INPUTS = ['src', 'web/src', 'ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'web/build.mjs'];

let built: Promise<string> | undefined;

/** The path of the built service's main.js, built first if these sources were not built yet. */
export function builtServiceMain(): Promise<string> {
  built ??= buildOnce();
  return built;
}

/** The built standalone sandbox (`npm run sandbox` compiled), from the same build. */
export async function builtSandboxMain(): Promise<string> {
  return join(await builtServiceMain(), '../sandbox/standalone.js');
}

async function buildOnce(): Promise<string> {
  const digest = sourceDigest();
  const outDir = join(CACHE, `${PREFIX}${digest}`);
  const stamp = join(outDir, '.built');
  const lock = `${outDir}.lock`;
  const main = join(outDir, 'src/main.js');
  mkdirSync(CACHE, { recursive: true });
  for (;;) {
    if (existsSync(stamp)) {
      // The web build is cheap, and dist/web may have been removed or rebuilt from other sources since.
      await buildWeb();
      return main;
    }
    if (takeLock(lock)) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  try {
    rmSync(outDir, { recursive: true, force: true });
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', outDir], {
      cwd: ROOT,
    });
    await buildWeb();
    writeFileSync(stamp, `${new Date().toISOString()}\n`);
    // Builds of other sources are of no more use.
    for (const entry of readdirSync(CACHE)) {
      if (entry.startsWith(PREFIX) && !entry.startsWith(`${PREFIX}${digest}`) && !entry.endsWith('.lock')) {
        rmSync(join(CACHE, entry), { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  return main;
}

/** Creates the lock directory, or takes over one whose process has ended. */
function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const holder = Number(readFileSafe(join(lock, 'pid')));
  if (holder && !alive(holder)) rmSync(lock, { recursive: true, force: true });
  return false;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** A digest of every file the build reads from the repository (names and contents). */
function sourceDigest(): string {
  const hash = createHash('sha256');
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path).sort()) visit(join(path, entry));
      return;
    }
    hash.update(relative(ROOT, path)).update('\0').update(readFileSync(path)).update('\0');
  };
  for (const input of INPUTS) visit(join(ROOT, input));
  return hash.digest('hex').slice(0, 16);
}
