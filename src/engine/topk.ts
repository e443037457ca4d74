/** Keeps the `k` items with the highest keys seen so far (a binary min-heap on key). */
export class TopK<T> {
  private readonly keys: number[] = [];
  private readonly items: T[] = [];

  constructor(private readonly k: number) {}

  get size(): number {
    return this.keys.length;
  }

  /** The smallest key kept, or -Infinity while not full. */
  get floor(): number {
    return this.keys.length < this.k ? -Infinity : this.keys[0]!;
  }

  push(key: number, item: T): void {
    if (this.k <= 0) return;
    if (this.keys.length < this.k) {
      this.keys.push(key);
      this.items.push(item);
      this.up(this.keys.length - 1);
    } else if (key > this.keys[0]!) {
      this.keys[0] = key;
      this.items[0] = item;
      this.down(0);
    }
  }

  /** Items best first. */
  sorted(): T[] {
    const idx = this.keys.map((_, i) => i).sort((a, b) => this.keys[b]! - this.keys[a]!);
    return idx.map((i) => this.items[i]!);
  }

  private swap(a: number, b: number): void {
    [this.keys[a], this.keys[b]] = [this.keys[b]!, this.keys[a]!];
    [this.items[a], this.items[b]] = [this.items[b]!, this.items[a]!];
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.keys[p]! <= this.keys[i]!) return;
      this.swap(p, i);
      i = p;
    }
  }

  private down(i: number): void {
    const n = this.keys.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.keys[l]! < this.keys[m]!) m = l;
      if (r < n && this.keys[r]! < this.keys[m]!) m = r;
      if (m === i) return;
      this.swap(m, i);
      i = m;
    }
  }
}
