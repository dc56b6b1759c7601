import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Resident memory a server holds of its own, in bytes: RssAnon + RssShmem of the process and its live descendants (a
 * cluster's workers). File-backed pages are left out: the code, and a memory-mapped SQLite file, whose pages the
 * kernel shares with its page cache and reclaims (VmRSS counts each one a read touched). Linux /proc; undefined
 * where it is unavailable.
 */
export function processRss(pid: number): number | undefined {
  const own = (one: number) => {
    const anon = statusKib(one, 'RssAnon');
    return anon === undefined ? undefined : anon + (statusKib(one, 'RssShmem') ?? 0);
  };
  const root = own(pid);
  if (root === undefined) return undefined;
  return recentDescendantsOf(pid).reduce((sum, child) => sum + (own(child) ?? 0), root);
}

/** descendantsOf, read again at most once a second: a sample every 100 ms would read all of /proc each time. */
const descendantsRead = new Map<number, { at: number; pids: number[] }>();
function recentDescendantsOf(pid: number): number[] {
  const known = descendantsRead.get(pid);
  if (known && performance.now() - known.at < 1_000) return known.pids;
  const pids = descendantsOf(pid);
  descendantsRead.set(pid, { at: performance.now(), pids });
  return pids;
}

export interface CpuTimes {
  userMs: number;
  systemMs: number;
}

/**
 * CPU time another process and its live descendants have used so far (a cluster's workers included), split into
 * user and kernel (system) time.
 */
export function processCpuTimes(pid: number): CpuTimes | undefined {
  const own = singleProcessCpuTimes(pid);
  if (!own) return undefined;
  for (const child of descendantsOf(pid)) {
    const times = singleProcessCpuTimes(child);
    if (times) {
      own.userMs += times.userMs;
      own.systemMs += times.systemMs;
    }
  }
  return own;
}

/** The live processes below `pid`, from /proc. */
function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number[]>();
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
      } catch {
        // Gone meanwhile.
      }
    }
  } catch {
    return [];
  }
  const below: number[] = [];
  const walk = (parent: number) => {
    for (const child of parents.get(parent) ?? []) {
      below.push(child);
      walk(child);
    }
  };
  walk(pid);
  return below;
}

function singleProcessCpuTimes(pid: number): CpuTimes | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces, so fields are counted from its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const perTick = 1000 / clockTicksPerSecond();
    return { userMs: Number(fields[11]) * perTick, systemMs: Number(fields[12]) * perTick };
  } catch {
    return undefined;
  }
}

/** This process's own CPU time, in the same shape. */
export function ownCpuTimes(): CpuTimes {
  const { user, system } = process.cpuUsage();
  return { userMs: user / 1000, systemMs: system / 1000 };
}

/** Samples a resident set size until stopped and returns the largest value seen. */
export function sampleRssPeak(read: () => number | undefined, everyMs = 100): { stop(): number } {
  let peak = read() ?? 0;
  const take = () => {
    const value = read();
    if (value !== undefined && value > peak) peak = value;
  };
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return peak;
    },
  };
}

function statusKib(pid: number, key: string): number | undefined {
  try {
    const match = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

let ticks: number | undefined;
function clockTicksPerSecond(): number {
  ticks ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  return ticks;
}
