import { readFileSync } from 'node:fs';

/** What Node gets by default on most Linux systems when nothing raised it. */
const FALLBACK = 1024;

/**
 * The process's soft limit of open file descriptors (`ulimit -n`, systemd's `LimitNOFILE`), read from
 * /proc/self/limits on Linux; elsewhere, or when it says "unlimited" or cannot be read, the common
 * default 1024. Node has no API for getrlimit.
 */
export function openFilesLimit(readLimits: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number {
  try {
    const line = readLimits()
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line ? Number(line.slice('Max open files'.length).trim().split(/\s+/)[0]) : NaN;
    return Number.isInteger(soft) && soft > 0 ? soft : FALLBACK;
  } catch {
    return FALLBACK;
  }
}

/**
 * Client connections one gateway listener may hold: a fifth of the descriptors each. A tunnel takes two
 * (client and exit), so both listeners full use four fifths and the API, the store and logs keep the
 * last fifth — a flood on one port never takes the descriptors the others need.
 */
export function defaultListenerBudget(limit = openFilesLimit()): number {
  return Math.max(16, Math.floor(limit / 5));
}
