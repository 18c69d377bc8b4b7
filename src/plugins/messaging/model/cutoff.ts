import { pastCutoff, type CutoffKind, type Cutoffs } from '../../../wire/texts';

/** The cut-off kind of a chat conversation (texts have their own: sms, group_sms). */
export const chatCutoffKind = (type: 'chat' | 'groupchat'): CutoffKind => (type === 'groupchat' ? 'group_chat' : 'chat');

/**
 * The messages the user's cut-off lets through (preference `uc-messages-cut-off`; 90 days unless set,
 * 730 meaning no cut-off), oldest first like the input.
 */
export function withinCutoff<M extends { timestamp: number }>(messages: readonly M[], kind: CutoffKind, cutoffs: Cutoffs, now: number): M[] {
  return messages.filter((m) => !pastCutoff(kind, m.timestamp, cutoffs, now));
}
