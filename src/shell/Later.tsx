import { Component, Suspense, type ReactNode } from 'react';

/**
 * A part of the page that loads after the page shows (a lazy component): the page does not wait
 * for it, and goes on without it if it cannot load (the server gone), instead of the whole page
 * being torn down by the failed import, with what the user typed.
 */
export class Later extends Component<{ children: ReactNode; fallback?: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(err: unknown): void {
    console.error('a part of the page did not load', err);
  }

  override render(): ReactNode {
    if (this.state.failed) return this.props.fallback ?? null;
    return <Suspense fallback={this.props.fallback}>{this.props.children}</Suspense>;
  }
}
