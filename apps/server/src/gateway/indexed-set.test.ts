import { describe, expect, it } from 'vitest';
import { IndexedSet } from './indexed-set';

describe('IndexedSet', () => {
  it('adds once, deletes from any position and keeps every other member findable', () => {
    const set = new IndexedSet<{ n: number }>();
    const items = Array.from({ length: 6 }, (_, n) => ({ n }));
    for (const i of items) set.add(i);
    set.add(items[0]!);
    expect(set.size).toBe(6);

    // First, middle and last: the last member is swapped into each hole.
    expect(set.delete(items[0]!)).toBe(true);
    expect(set.delete(items[3]!)).toBe(true);
    expect(set.delete(items[5]!)).toBe(true);
    expect(set.delete(items[3]!)).toBe(false);
    expect(set.size).toBe(3);
    expect(set.toArray().map((i) => i.n).sort()).toEqual([1, 2, 4]);
    for (const i of [items[1]!, items[2]!, items[4]!]) expect(set.has(i)).toBe(true);
    for (const i of [items[0]!, items[3]!, items[5]!]) expect(set.has(i)).toBe(false);

    // Members moved by a swap are still deleted from their new position.
    expect(set.delete(items[4]!)).toBe(true);
    expect(set.delete(items[1]!)).toBe(true);
    expect(set.toArray()).toEqual([items[2]]);
  });

  it('gives a copy that stays whole while members are deleted, and clears', () => {
    const set = new IndexedSet<object>();
    const items = [{}, {}, {}];
    for (const i of items) set.add(i);
    const seen: object[] = [];
    for (const i of set.toArray()) {
      seen.push(i);
      set.delete(i);
    }
    expect(seen).toHaveLength(3);
    expect(set.size).toBe(0);

    for (const i of items) set.add(i);
    set.clear();
    expect(set.size).toBe(0);
    expect(set.has(items[1]!)).toBe(false);
    set.add(items[1]!);
    expect(set.toArray()).toEqual([items[1]]);
  });
});
