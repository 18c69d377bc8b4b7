// On the boot path (the manifest's enablement reads it): type imports only.
import type { Profile } from '../../../wire/profile';
import type { CallRecord } from '../state';

type Calls = Readonly<Record<string, CallRecord>>;

/**
 * The call a transfer with no id acts on: the connected call, else the newest held one; never a
 * consultation call (it is the other half of an attended transfer).
 */
export function transferableCallId(calls: Calls): string | undefined {
  const candidates = Object.values(calls).filter((c) => !c.consultFor && (c.state === 'active' || c.state === 'hold'));
  return (candidates.find((c) => c.state === 'active') ?? [...candidates].sort((a, b) => b.seq - a.seq)[0])?.id;
}

/** The user's own mobile: the first personal number of their profile (where "move call to cell" sends a call). */
export function cellNumber(profile: Pick<Profile, 'phone_numbers'> | null | undefined): string | null {
  return profile?.phone_numbers.find((p) => p.source === 'personal' && p.number)?.number ?? null;
}
