import { Initial1763712000000 } from './1763712000000-initial.js';

/** Listed as classes, not globs, so they load the same from src (vitest, tsx) and dist (node). */
export const migrations = [Initial1763712000000];
