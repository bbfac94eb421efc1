/**
 * Key hashes that matched no key, each until a deadline: a wrong key presented again before then costs
 * no query. Kept apart from the found keys and bounded on its own (the oldest entry goes first), so a
 * flood of random keys can neither grow memory without limit nor push the keys in use out of their cache.
 */
export class UnknownKeyCache {
  private readonly deadlines = new Map<string, number>();

  constructor(private readonly maxEntries: number) {}

  has(hash: string, now: number): boolean {
    const validUntil = this.deadlines.get(hash);
    if (validUntil === undefined) return false;
    if (validUntil > now) return true;
    this.deadlines.delete(hash);
    return false;
  }

  add(hash: string, validUntil: number): void {
    this.deadlines.delete(hash);
    this.deadlines.set(hash, validUntil);
    if (this.deadlines.size > this.maxEntries) {
      const oldest = this.deadlines.keys().next();
      if (!oldest.done) this.deadlines.delete(oldest.value);
    }
  }

  delete(hash: string): void {
    this.deadlines.delete(hash);
  }

  clear(): void {
    this.deadlines.clear();
  }

  get size(): number {
    return this.deadlines.size;
  }
}
