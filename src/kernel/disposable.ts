/** Anything a plugin registers hands back one of these; the kernel tears the plugin down through them. */
export interface Disposable {
  dispose(): void;
}

export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/** Collects disposables so one call releases everything, newest first (reverse of registration). */
export class DisposableStore implements Disposable {
  private items: Disposable[] = [];
  private disposed = false;

  add<T extends Disposable>(item: T): T {
    if (this.disposed) {
      item.dispose();
      return item;
    }
    this.items.push(item);
    return item;
  }

  get size(): number {
    return this.items.length;
  }

  dispose(): void {
    this.disposed = true;
    const items = this.items.reverse();
    this.items = [];
    for (const item of items) item.dispose();
  }
}
