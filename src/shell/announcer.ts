/** Two live regions (polite and assertive) the whole app shares, so announcements never stack up. */
export class Announcer {
  private listeners = new Set<(m: { text: string; politeness: 'polite' | 'assertive'; n: number }) => void>();
  private n = 0;
  announce(text: string, politeness: 'polite' | 'assertive' = 'polite'): void {
    this.n++;
    for (const l of this.listeners) l({ text, politeness, n: this.n });
  }
  subscribe(l: (m: { text: string; politeness: 'polite' | 'assertive'; n: number }) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
}

export const announcer = new Announcer();
