import { toDisposable, type Disposable } from './disposable';

/** An ordered id → item map whose additions are disposable and observable. */
export class Registry<T> {
  private readonly items = new Map<string, { item: T; owner: string }>();
  private readonly listeners = new Set<() => void>();
  private version = 0;

  constructor(readonly name: string) {}

  add(id: string, item: T, owner: string): Disposable {
    if (this.items.has(id)) throw new Error(`${this.name}: duplicate id "${id}"`);
    this.items.set(id, { item, owner });
    this.changed();
    return toDisposable(() => {
      if (this.items.get(id)?.item === item) {
        this.items.delete(id);
        this.changed();
      }
    });
  }

  has(id: string): boolean {
    return this.items.has(id);
  }

  get(id: string): T | undefined {
    return this.items.get(id)?.item;
  }

  ownerOf(id: string): string | undefined {
    return this.items.get(id)?.owner;
  }

  list(): T[] {
    return [...this.items.values()].map((e) => e.item);
  }

  entries(): Array<{ id: string; item: T; owner: string }> {
    return [...this.items.entries()].map(([id, e]) => ({ id, ...e }));
  }

  get size(): number {
    return this.items.size;
  }

  /** Monotonic counter for React's useSyncExternalStore. */
  getVersion = (): number => this.version;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private changed(): void {
    this.version++;
    for (const l of [...this.listeners]) l();
  }
}
