import { performance } from 'node:perf_hooks';
import type { SandboxState } from './saved-state.js';
import { writeStateFile } from './state-file.js';

/** pino's Logger fits; the sandbox needs no more than this. */
export interface SandboxLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface StateSaverOptions {
  /** A change is on disk at most this long after it was made; later changes in between share the save. */
  delayMs: number;
  logger: SandboxLogger;
}

/** A save this slow blocks the event loop enough to be worth a line in the log. */
const SLOW_SAVE_MS = 200;
/** Saves of a huge state are spaced out so they take at most a tenth of the event loop while changes go on. */
const MAX_SAVE_SHARE = 10;

/**
 * Writes the whole state (one JSON snapshot) after changes: debounced, so a burst costs one save and a SIGKILL
 * loses at most the last `delayMs` (or ten times the last save's duration, when that is longer); `flush()`
 * writes what is pending.
 */
export class StateSaver {
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;
  private failing = false;
  private lastSaveMs = 0;
  private reportedSlow = false;
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly capture: () => SandboxState,
    private readonly options: StateSaverOptions,
  ) {}

  changed(): void {
    if (this.closed) return;
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.save();
      },
      Math.max(this.options.delayMs, this.lastSaveMs * MAX_SAVE_SHARE),
    );
    this.timer.unref();
  }

  /** Writes now if anything changed since the last save. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.save();
  }

  /** The last save; later changes are not written (the sandbox is being shut down). */
  close(): void {
    this.flush();
    this.closed = true;
  }

  private save(): void {
    if (!this.dirty) return;
    this.dirty = false;
    const started = performance.now();
    try {
      const text = JSON.stringify(this.capture());
      writeStateFile(this.path, text);
      const ms = Math.round(performance.now() - started);
      this.lastSaveMs = ms;
      if (ms >= SLOW_SAVE_MS && !this.reportedSlow) {
        this.reportedSlow = true;
        this.options.logger.info({ path: this.path, ms, bytes: text.length }, 'the sandbox state is large: saves are spaced out');
      }
      if (this.failing) this.options.logger.info({ path: this.path }, 'sandbox state saved again');
      this.failing = false;
    } catch (error) {
      // Kept dirty: the next change, or close(), tries again. Warned once per run of failures.
      this.dirty = true;
      if (!this.failing)
        this.options.logger.warn({ path: this.path, err: { message: (error as Error).message } }, 'could not save the sandbox state');
      this.failing = true;
    }
  }
}
