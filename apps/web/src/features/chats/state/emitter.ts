/**
 * The smallest external store: listeners and an immutable snapshot, for `useSyncExternalStore`
 * (React re-renders only when the snapshot object changes).
 */
export class SnapshotStore<S> {
  private listeners = new Set<() => void>();
  protected snapshot: S;

  constructor(initial: S) {
    this.snapshot = initial;
  }

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
    };
  };

  getSnapshot = (): S => this.snapshot;

  protected commit(next: S) {
    this.snapshot = next;
    this.listeners.forEach((fn) => fn());
  }
}
