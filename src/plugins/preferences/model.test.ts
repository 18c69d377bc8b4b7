import { describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../kernel';
import { PASSWORD_REUSED_MESSAGE, passwordChecks, passwordStrong } from '../../wire/password';
import { panelsFor, passwordForm, shownPanel, type PanelRow } from './model';
import { panelSearch, placeOf } from './state';
import en from './strings/en.json';

const Nothing = () => null;
const session = (configured: boolean) => ({ config: { sip: { configured } } }) as unknown as SessionInfo;

describe('password rules', () => {
  const unmet = (p: string) => passwordChecks(p).filter((c) => !c.met).map((c) => c.rule);
  it('needs a digit, an uppercase and a lowercase letter, 8 characters and a special character', () => {
    expect(unmet('')).toEqual(['digit', 'uppercase', 'lowercase', 'length', 'special']);
    expect(unmet('abcdefgh')).toEqual(['digit', 'uppercase', 'special']);
    expect(unmet('Abcdefg1')).toEqual(['special']);
    expect(unmet('Ab1-')).toEqual(['length']);
    expect(unmet('ABCDEFG1-')).toEqual(['lowercase']);
    expect(unmet('abcdefg1-')).toEqual(['uppercase']);
    expect(passwordStrong('Demo-pass-1')).toBe(true);
    // Letters and digits of any script count; a space is not a special character.
    expect(passwordStrong('Ünïcödé 1x')).toBe(false);
    expect(passwordStrong('Ünïcödé_1x')).toBe(true);
    expect(unmet('Пароль-1')).toEqual([]);
  });
  it('counts characters, not UTF-16 units', () => {
    expect(unmet('Aa1-😀😀')).toEqual(['length']);
  });
  it('the form is ready when every rule holds, the confirmation matches and the current password is given', () => {
    const ok = { current: 'x', next: 'Fresh-pass-2', confirm: 'Fresh-pass-2' };
    expect(passwordForm(ok).ready).toBe(true);
    expect(passwordForm({ ...ok, confirm: 'Fresh-pass-3' }).checks.find((c) => c.rule === 'match')?.met).toBe(false);
    expect(passwordForm({ ...ok, confirm: 'Fresh-pass-3' }).ready).toBe(false);
    expect(passwordForm({ ...ok, current: '' }).ready).toBe(false);
    expect(passwordForm({ current: 'x', next: '', confirm: '' }).checks.find((c) => c.rule === 'match')?.met).toBe(false);
  });
  it('the English form shows the server\'s message for a reused password word for word', () => {
    expect(en.password.same).toBe(PASSWORD_REUSED_MESSAGE);
  });
});

describe('panel registry', () => {
  const rows: PanelRow[] = [
    { id: 'password', component: Nothing },
    { id: 'calling', component: Nothing, when: (s) => s.config.sip.configured },
    { id: 'general', component: Nothing },
  ];
  it('lists the panels in the specification\'s order, whatever the registry\'s', () => {
    expect(panelsFor(rows, session(true)).map((p) => p.id)).toEqual(['general', 'calling', 'password']);
  });
  it('hides a panel the user does not have (calling without calling configured)', () => {
    expect(panelsFor(rows, session(false)).map((p) => p.id)).toEqual(['general', 'password']);
  });
  it('shows the asked panel when the user has it, else the first', () => {
    const panels = panelsFor(rows, session(false));
    expect(shownPanel(panels, 'password')?.id).toBe('password');
    expect(shownPanel(panels, 'calling')?.id).toBe('general');
    expect(shownPanel(panels, undefined)?.id).toBe('general');
  });
  it('?panel= keeps a known panel id only', () => {
    expect(panelSearch({ panel: 'password' })).toEqual({ panel: 'password' });
    expect(panelSearch({ panel: 'nope' })).toEqual({});
    expect(panelSearch({ panel: 3 })).toEqual({});
  });
  it('&tab= keeps one of the Calling panel\'s tabs, on that panel only', () => {
    expect(panelSearch({ panel: 'calling', tab: 'click-dial' })).toEqual({ panel: 'calling', tab: 'click-dial' });
    expect(panelSearch({ panel: 'calling', tab: 'find-me' })).toEqual({ panel: 'calling', tab: 'find-me' });
    expect(panelSearch({ panel: 'calling', tab: 'nope' })).toEqual({ panel: 'calling' });
    expect(panelSearch({ panel: 'general', tab: 'click-dial' })).toEqual({ panel: 'general' });
  });
  it('tells a tab switch of the Calling panel from staying put (the unsaved-changes guard asks on the first)', () => {
    expect(placeOf({ panel: 'calling' }, 'profile')).toBe(placeOf({ panel: 'calling', tab: 'inbound-dialing' }, 'profile'));
    expect(placeOf({ panel: 'calling' }, 'profile')).not.toBe(placeOf({ panel: 'calling', tab: 'click-dial' }, 'profile'));
    expect(placeOf({}, 'profile')).toBe(placeOf({ panel: 'profile' }, 'profile'));
    expect(placeOf({ panel: 'general' }, 'profile')).not.toBe(placeOf({ panel: 'audio' }, 'profile'));
  });
});
