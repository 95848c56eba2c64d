/** Small vector helpers for hot loops. */

/** Length of (dx, dy). Math.hypot is much slower in V8 and its overflow care is not needed on a table. */
export function len(dx: number, dy: number): number {
  return Math.sqrt(dx * dx + dy * dy);
}
