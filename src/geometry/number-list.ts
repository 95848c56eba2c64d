/**
 * A reusable list of numbers: `n` of them in `v`, grown when full. The hot geometry paths keep their
 * scratch results in these rather than in JS arrays, because clearing an array (`length = 0`) drops its
 * storage and every refill allocates again, millions of times a game. Clear with `n = 0`.
 */
export class NumberList {
  v = new Float64Array(32);
  n = 0;
  push(x: number): void {
    if (this.n === this.v.length) {
      const w = new Float64Array(this.v.length * 2);
      w.set(this.v);
      this.v = w;
    }
    this.v[this.n++] = x;
  }
}
