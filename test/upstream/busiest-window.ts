/** The most instants found in any half-open window of `windowMs` (1000 by default). */
export function busiestWindow(instants: number[], windowMs = 1000): number {
  const sorted = [...instants].sort((a, b) => a - b);
  return Math.max(0, ...sorted.map((start) => sorted.filter((t) => t >= start && t < start + windowMs).length));
}
