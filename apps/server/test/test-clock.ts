import type { Clock } from '../src/lib/clock';

/** A clock tests move forward instead of waiting (code expiry, lockouts, sessions). */
export class TestClock implements Clock {
  private t = Date.now();
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
}
