import TinyQueue from "tinyqueue";

/**
 * The first `k` items of a stream in a total order, in O(k) memory: a heap holds the k best seen so
 * far with the worst of them on top, and an item better than that one replaces it. Sorting every
 * item would hold the whole stream (a glob over a million files); the heap holds a page's worth.
 * `compare` orders best first; it must be a total order so ties never depend on arrival order.
 */
export class TopK<T> {
  private readonly heap: TinyQueue<T>;
  /** Items offered, kept or not. */
  seen = 0;

  constructor(
    private readonly k: number,
    private readonly compare: (a: T, b: T) => number,
  ) {
    // the worst kept item on top: reversed order
    this.heap = new TinyQueue<T>([], (a, b) => compare(b, a));
  }

  offer(item: T): void {
    this.seen++;
    if (this.k <= 0) return;
    if (this.heap.length < this.k) {
      this.heap.push(item);
      return;
    }
    if (this.compare(item, this.heap.peek()!) < 0) {
      this.heap.pop();
      this.heap.push(item);
    }
  }

  /** The kept items, best first. */
  sorted(): T[] {
    return [...this.heap.data.slice(0, this.heap.length)].sort(this.compare);
  }
}
