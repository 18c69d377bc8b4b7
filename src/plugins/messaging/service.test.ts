import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { peerPresenceApi, recentMessagesApi } from './service';
import { chat, resetChat, type ChatSessionState } from './state';
import { resetTexts, texts, type TextConversationState } from './texts/state';

const session = (jid: string, name: string, messages: Array<{ body: string; timestamp: number; mine?: boolean; from?: string }>) =>
  ({ jid, type: 'chat', name, members: [], messages: messages.map((m, i) => ({ id: `${jid}${i}`, from: m.from ?? jid, mine: !!m.mine, body: m.body, timestamp: m.timestamp })) }) as unknown as ChatSessionState;

beforeAll(async () => {
  await i18next.init({ lng: 'en', resources: { en: { messaging: { presence: { away: 'Away' } } } } });
});
afterEach(() => (resetChat(), resetTexts()));

describe('recent messages (the dashboard feed)', () => {
  it('takes the newest message of each conversation, chats and texts, newest first, at most the limit', () => {
    chat.sessions = {
      'bob@x': session('bob@x', 'Bob', [{ body: 'old', timestamp: 1000 }, { body: 'hi there', timestamp: 5000 }]),
      'ann@x': session('ann@x', 'Ann', [{ body: 'mine', timestamp: 3000, mine: true }]),
      'empty@x': session('empty@x', 'Nobody', []),
    };
    texts.conversations = {
      'c.1@sms.x': { jid: 'c.1@sms.x', members: ['+14155550100'], messages: [{ id: 't', direction: 'in', from: '+14155550100', body: 'text!', media: [], status: 'received', sent_at: new Date(4000).toISOString() }] } as unknown as TextConversationState,
    };
    const recent = recentMessagesApi().recent(10);
    expect(recent.map((m) => [m.name, m.text, m.from, m.at])).toEqual([
      ['Bob', 'hi there', 'Bob', 5000],
      ['+14155550100', 'text!', '+14155550100', 4000],
      ['Ann', 'mine', null, 3000],
    ]);
    expect(recent[0]!.path).toBe('/chat/bob%40x');
    expect(recent[1]!.path).toBe('/message/c.1%40sms.x');
    expect(recentMessagesApi().recent(2)).toHaveLength(2);
  });
});

describe('peer presence (the dashboard contacts)', () => {
  it("words a colleague's presence with messaging's strings, or their custom text; null when unknown", () => {
    chat.contacts = [
      { user_id: 7, jid: 'bob@x', name: 'Bob' },
      { user_id: 8, jid: 'ann@x', name: 'Ann' },
    ];
    chat.presence = { 'bob@x': { state: 'away', text: '' }, 'ann@x': { state: 'available', text: 'In the lab' } };
    const p = peerPresenceApi();
    expect(p.of(7)).toEqual({ state: 'away', label: 'Away' });
    expect(p.of(8)).toEqual({ state: 'available', label: 'In the lab' });
    expect(p.of(9)).toBeNull();
  });
});
