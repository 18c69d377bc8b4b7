import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyBases, keysNamedInSources, readStrings } from '../../../tests/i18nFiles';

/* tests/i18n.test.ts checks every language of `locales/` and `strings/`; here: no key the code names is missing in English. */
const here = import.meta.dirname;

describe('messaging strings', () => {
  it('every key the code names exists in English', () => {
    const all = new Set([...keyBases(readStrings(join(here, 'strings', 'en.json'))), ...keyBases(readStrings(join(here, 'locales', 'en.json')))]);
    const used = keysNamedInSources(here, 'messaging');
    // Keys built at run time.
    for (const s of ['available', 'away', 'busy', 'donotdisturb', 'lunch', 'invisible', 'custom', 'unavailable']) used.add(`presence.${s}`);
    for (const s of ['sending', 'delivered', 'received', 'failed', 'cancel']) used.add(`status.${s}`);
    for (const g of ['all', 'unread', 'muted']) used.add(`chat.group.${g}`);
    for (const r of ['accessDenied', 'affiliationNone', 'deleted', 'expired', 'left']) used.add(`ended.${r}`);
    for (const a of ['owner', 'admin', 'member', 'outcast', 'none']) used.add(`room.affiliation.${a}`);
    for (const r of ['moderator', 'participant', 'visitor', 'none']) used.add(`room.role.${r}`);
    for (const p of ['subject_required', 'subject_too_long', 'members_required', 'too_many_members', 'not_a_colleague', 'self_member', 'duplicate_member']) used.add(`room.problem.${p}`);
    for (const r of ['offline', 'noUnread', 'noSessions', 'noGroups', 'noOpen']) used.add(`reasons.${r}`);
    for (const c of ['go', 'newChat', 'message', 'markAllRead', 'setPresence', 'customStatus', 'newGroup', 'toggleMute', 'pin', 'close', 'leave', 'focusInput', 'insertEmoji', 'attachFile']) used.add(`commands.${c}`);
    for (const p of ['extension', 'tooLarge', 'empty', 'offline', 'uploadFailed']) used.add(`media.problem.${p}`);
    for (const g of ['recent', 'smiles', 'people', 'nature', 'food', 'travel']) used.add(`emoji.group.${g}`);
    expect(used.size).toBeGreaterThan(40);
    expect([...used].filter((k) => !all.has(k)).sort()).toEqual([]);
  });

  it('what the palette shows at boot is a boot string (locales/): argument titles and the status names "Set status" offers', () => {
    const boot = keyBases(readStrings(join(here, 'locales', 'en.json')));
    const src = readFileSync(join(here, 'commands.ts'), 'utf8');
    const named = new Set([...src.matchAll(/'messaging:([A-Za-z_.]+)'/g)].map((m) => m[1]!));
    for (const s of ['available', 'away', 'busy', 'donotdisturb', 'lunch', 'invisible']) if (src.includes('messaging:presence.${s}')) named.add(`presence.${s}`);
    expect(named.has('args.presence')).toBe(true);
    expect([...named].filter((k) => !boot.has(k)).sort()).toEqual([]);
  });
});
