/**
 * The short ramp of the load benches: run a step at each rate, lowest first, and stop at the first
 * that fails (1 % or more of its attempts failed, or the generator could not even offer the rate),
 * since every higher rate would only fail harder and cost time.
 */
export interface StepResult {
  /** The rate asked for (per second). */
  rate: number;
  attempted: number;
  failed: number;
  /** The rate actually offered: a generator at its own limit falls behind the one asked for. */
  achievedRate: number;
}

export const MAX_FAILED_RATIO = 0.01;
/** Below this share of the asked rate, the step measured the generator, not the server. */
export const MIN_ACHIEVED_SHARE = 0.9;

export function stepPassed(s: StepResult): boolean {
  return s.attempted > 0 && s.failed / s.attempted < MAX_FAILED_RATIO && s.achievedRate >= s.rate * MIN_ACHIEVED_SHARE;
}

/** The highest rate among the steps that passed, of those before the first failed one (0 if none did). */
export function highestPassingRate(steps: readonly StepResult[]): number {
  let best = 0;
  for (const s of steps) {
    if (!stepPassed(s)) break;
    best = Math.max(best, s.rate);
  }
  return best;
}

/** Runs `step` at each rate in ascending order until one fails; returns every step run. */
export async function ramp<T extends StepResult>(rates: readonly number[], step: (rate: number) => Promise<T>): Promise<T[]> {
  const done: T[] = [];
  for (const rate of [...rates].sort((a, b) => a - b)) {
    const r = await step(rate);
    done.push(r);
    if (!stepPassed(r)) break;
  }
  return done;
}
