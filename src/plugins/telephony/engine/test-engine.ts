/** What the PhoneEngine test files share: fake timers, a fresh store, an engine on test-fakes.ts. */
import { expect, vi } from 'vitest';
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
