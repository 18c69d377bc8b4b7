import type { ForwardSetting } from '../../src/wire/calling';
import { callRouting } from '../calls/repository';
import type { Queryable } from '../db/types';
import type { VoicemailBox } from '../voicemail/deposit';
import { partyAt } from './extension';

/**
 * Where a call to `callee` goes now: `ring`, `dnd` (busy), `forward:<number>` or
 * `voicemail:<mailbox>`; asked again with `unanswered` when the callee could not take the call (or
 * is on do-not-disturb), which the default forward answers. `voicemail` (the extension dialled with
 * a trailing *) answers `voicemail:<mailbox>` or `none`. Voicemail is only chosen while the
 * voicemail phone is connected, and otherwise falls back to what would happen without it.
 */
export async function routingDecision(db: Queryable, callee: string, on?: 'unanswered' | 'voicemail', box?: VoicemailBox | null): Promise<string> {
  const user = await partyAt(db, callee);
  const toVoicemail = async () => (user && box?.ready && (await box.open(user.extension)) ? `voicemail:${user.extension}` : null);
  if (on === 'voicemail') return (await toVoicemail()) ?? 'none';
  if (!user) return 'ring';
  const routing = await callRouting(db, user.id);
  if (!on && routing.do_not_disturb) return 'dnd';
  const fwd: ForwardSetting | null = on === 'unanswered' ? routing.forward_default : routing.forward_always;
  if (fwd?.enabled && fwd.destination?.destination_type === 'box') return (await toVoicemail()) ?? 'ring';
  const target = fwd?.enabled ? fwd.destination?.destination_parameter : null;
  // Never back to the same phone (a loop Kamailio would otherwise follow once).
  if (target && target !== callee) return `forward:${target}`;
  return 'ring';
}
