import { STATE_FORMAT, STATE_VERSION, type SandboxState } from './saved-state.js';
import { moveAside, readStateFile } from './state-file.js';
import { StateSaver, type SandboxLogger } from './state-saver.js';

export type { SandboxLogger } from './state-saver.js';

type StateParts = Pick<SandboxState, 'store' | 'webhooks' | 'iterators' | 'auth'>;

export interface SandboxPersistence {
  /** The state to resume; undefined: start from the seed (no file yet, an unusable file, or memory only). */
  saved?: SandboxState;
  /** Absent when the sandbox lives in memory only. */
  saver?: StateSaver;
  /** Names what is saved; called once the parts exist (they are built from `saved`). */
  attach(capture: () => StateParts): void;
}

/**
 * Reads the state file, if any. A file that cannot be used is moved aside with a warning and the sandbox starts
 * from its seed again, so a damaged file never stops the service.
 */
export function openSandboxState(path: string | undefined, delayMs: number, logger: SandboxLogger): SandboxPersistence {
  if (!path) return { attach: () => undefined };
  let capture: (() => StateParts) | undefined;
  const saver = new StateSaver(
    path,
    () => ({ format: STATE_FORMAT, version: STATE_VERSION, savedAt: new Date().toISOString(), ...capture!() }),
    { delayMs, logger },
  );
  const attach = (parts: () => StateParts) => {
    capture = parts;
  };
  const content = readStateFile(path);
  if (content.kind === 'loaded') {
    const { bases } = content.state.store;
    logger.info({ path, bases: bases.length, savedAt: content.state.savedAt }, 'sandbox state loaded');
    return { saved: content.state, saver, attach };
  }
  if (content.kind === 'corrupt') {
    const movedTo = moveAside(path);
    logger.warn(
      { path, problem: content.problem, movedTo },
      'the sandbox state file is unusable; starting again from the demo seed (the bad file was moved aside)',
    );
  }
  return { saver, attach };
}
