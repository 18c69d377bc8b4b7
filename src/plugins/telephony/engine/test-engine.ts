/** What the PhoneEngine test files share: fake timers, a fresh store, an engine on test-fakes.ts. */
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { phone, resetPhone } from '../state';
import { PhoneEngine } from './PhoneEngine';
import { harness, type Harness } from './test-fakes';

export const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  await vi.advanceTimersByTimeAsync(0);
};

/** A started engine on fresh fakes; `granted`: whether the server lets this tab hold the registration. */
export async function startEngine(over: Parameters<typeof harness>[0] = {}, granted = true): Promise<{ h: Harness; engine: PhoneEngine }> {
  const h = harness(over);
  h.grant.value = granted;
  const engine = new PhoneEngine(h.deps);
  engine.start();
  await flush();
  return { h, engine };
}

/** Before each test: fake timers at a fixed date, and an empty phone store. */
export function freshPhone(): void {
  vi.useFakeTimers({ now: new Date('2026-01-05T10:00:00Z') });
  resetPhone();
}

export const calls = () => Object.values(phone.calls);
export const only = () => {
  expect(calls()).toHaveLength(1);
  return calls()[0]!;
};

/**
 * A test file's engine: fake timers and an empty store before each test, the engine disposed after.
 * `bind` hands each started engine to the file's own `h` and `engine`; the result starts one.
 */
export function engineTests(bind: (started: { h: Harness; engine: PhoneEngine }) => void): (over?: Parameters<typeof harness>[0], granted?: boolean) => Promise<void> {
  let current: PhoneEngine | undefined;
  beforeEach(freshPhone);
  afterEach(() => {
    current?.dispose();
    current = undefined;
    vi.useRealTimers();
  });
  return async (over = {}, granted = true) => {
    const started = await startEngine(over, granted);
    current = started.engine;
    bind(started);
  };
}
