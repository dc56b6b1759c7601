export type Random = () => number;

/** A Random that can be saved and resumed: `createRandom(random.state())` continues the same sequence. */
export interface ResumableRandom extends Random {
  state(): number;
}

/** mulberry32: tiny and fast; the same seed always yields the same sequence, which keeps the demo stable. */
export function createRandom(seed: number): ResumableRandom {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Object.assign(random, { state: () => state });
}

/** FNV-1a over the joined parts, so independent streams can be derived from one seed. */
export function hashSeed(...parts: Array<string | number>): number {
  const text = parts.join('\u0000');
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}
