import { describe, expect, it } from 'vitest';
import { pastCutoff } from '../../wire/texts';
import { cutoffChoices, cutoffDraft, cutoffsToSave, isNever, noticeSwitches, noticesOffValue } from './messages';

describe('message cut-offs in the Messages panel', () => {
  it('shows 90 days for every kind never saved, or saved as something unreadable', () => {
    expect(cutoffDraft(false)).toEqual({ sms: 90, group_sms: 90, chat: 90, group_chat: 90 });
    expect(cutoffDraft({ sms: 30, chat: 'x', group_chat: -4, group_sms: 1.5 })).toEqual({ sms: 30, group_sms: 90, chat: 90, group_chat: 90 });
  });

  it('saves only when all four are set', () => {
    expect(cutoffsToSave({ sms: 30, group_sms: 90, chat: 730, group_chat: 7 })).toEqual({ sms: 30, group_sms: 90, chat: 730, group_chat: 7 });
    expect(cutoffsToSave({ sms: 30, group_sms: null, chat: 730, group_chat: 7 })).toBeNull();
    expect(cutoffsToSave({ sms: 30, chat: 730, group_chat: 7 })).toBeNull();
  });

  it('730 means never: offered as a choice, and messaging then cuts nothing off', () => {
    expect(cutoffChoices(90)).toContain(730);
    expect(isNever(730)).toBe(true);
    expect(isNever(365)).toBe(false);
    const now = Date.UTC(2026, 0, 1);
    const tenYearsAgo = now - 3650 * 86_400_000;
    expect(pastCutoff('chat', tenYearsAgo, cutoffDraft({ chat: 730 }), now)).toBe(false);
    expect(pastCutoff('chat', tenYearsAgo, cutoffDraft(false), now)).toBe(true);
  });

  it('keeps an odd saved value among the choices, in order', () => {
    expect(cutoffChoices(45)).toEqual([7, 30, 45, 90, 180, 365, 730]);
  });
});

describe('desktop notification switches', () => {
  it('every kind is on until switched off; the preference stores the kinds off', () => {
    expect(noticeSwitches(false)).toEqual({ chat: true, texts: true, voicemail: true, calls: true });
    const on = noticeSwitches(['voicemail']);
    expect(on.voicemail).toBe(false);
    expect(noticesOffValue({ ...on, texts: false })).toEqual(['texts', 'voicemail']);
    expect(noticesOffValue(noticeSwitches(false))).toEqual([]);
  });
});
