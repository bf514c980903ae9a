/** Time source for every rule with a deadline, so tests can move time instead of waiting for it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const iso = (d: Date): string => d.toISOString();
export const addMs = (d: Date, ms: number): Date => new Date(d.getTime() + ms);
export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;
