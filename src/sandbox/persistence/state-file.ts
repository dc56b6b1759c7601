import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SandboxState } from './saved-state.js';
import { checkState } from './state-schema.js';

export type StateFileContent = { kind: 'missing' } | { kind: 'loaded'; state: SandboxState } | { kind: 'corrupt'; problem: string };

export function readStateFile(path: string): StateFileContent {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'corrupt', problem: `unreadable (${(error as Error).message})` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'corrupt', problem: `not JSON (${(error as Error).message})` };
  }
  const checked = checkState(value);
  return 'state' in checked ? { kind: 'loaded', state: checked.state } : { kind: 'corrupt', problem: checked.problem };
}

/**
 * Replaces the file atomically: written beside it, then renamed over it, so a crash leaves the old or the new
 * content, never half of one. Synchronous on purpose: a flush at shutdown must not race an earlier write.
 */
export function writeStateFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

/** Keeps a file that could not be loaded for a person to look at; returns where it went (null if it could not move). */
export function moveAside(path: string, now = new Date()): string | null {
  const aside = `${path}.corrupt-${now.toISOString().replace(/[:.]/g, '-')}`;
  try {
    renameSync(path, aside);
    return aside;
  } catch {
    return null;
  }
}
