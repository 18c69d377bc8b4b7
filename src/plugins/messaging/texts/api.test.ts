import { Strophe } from 'strophe.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Api, Navigation, Notifications, Preferences, type ServiceLookup, ApiError } from '../../../kernel';
import type { TextConversation, TextMessage } from '../../../wire/texts';
import { cutoffs, onHeadline, sendInConversation, startTexts, stopTexts, toggleTextMute } from './api';
import { resetTexts, texts } from './state';

const xml = (s: string) => Strophe.xmlHtmlNode(s).documentElement as unknown as Element;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const JID = 'c.14155550101.12125550123@sms.uc.local';
const conv = (over: Partial<TextConversation> = {}): TextConversation => ({ jid: JID, kind: 'sms', did: '+14155550101', members: ['+12125550123'], unread: 2, read_at: null, last: null, ...over });
const msg = (id: string, over: Partial<TextMessage> = {}): TextMessage => ({ id, direction: 'in', from: '+12125550123', body: `body ${id}`, media: [], status: 'delivered', sent_at: new Date(Date.parse('2026-11-24T07:00:00Z') + id.length).toISOString(), ...over });
const headline = (c: TextConversation, m: TextMessage) =>
  xml(`<message xmlns="jabber:client" type="headline" from="${c.jid}" to="alice@uc.local"><text xmlns="urn:uc:texts:0">${esc(JSON.stringify({ conversation: c, message: m }))}</text></message>`);

function fakeServices(over: { post?: () => Promise<unknown>; muted?: string[] } = {}) {
  const announce = vi.fn();
  const api = {
    get: vi.fn(async (path: string) =>
      path === '/v1/p1/messaging-dids'
        ? { dids: [{ number: '+14155550101', label: 'x', mms_enabled: true }], banned_numbers: ['+14155550666'] }
        : { conversations: [conv({ last: msg('m0') })] },
    ),
    put: vi.fn(async () => undefined),
    post: vi.fn(over.post ?? (async () => ({}))),
    request: vi.fn(),
  };
  const prefs = { get: vi.fn(async (key: string) => (key === 'uc-texts-muted' ? (over.muted ?? false) : { sms: 30, group_sms: 730, chat: null })), set: vi.fn(async () => undefined) };
  const byKey = new Map<unknown, unknown>([
    [Api, api],
    [Notifications, { announce, toast: vi.fn() }],
    [Preferences, prefs],
  ]);
  const services = { get: (k: unknown) => byKey.get(k), maybe: (k: unknown) => byKey.get(k), has: (k: unknown) => byKey.has(k) } as unknown as ServiceLookup;
  return { services, api, announce, prefs };
}

afterEach(() => {
  stopTexts();
  resetTexts();
});

describe('texts store', () => {
  it('loads numbers, banned numbers, conversations with their unread counts and the cut-offs', async () => {
    const { services } = fakeServices();
    startTexts(services, (k) => k);
    await vi.waitFor(() => expect(texts.status).toBe('ready'));
    expect(texts.dids[0]?.number).toBe('+14155550101');
    expect(texts.banned).toEqual(['+14155550666']);
    expect(texts.conversations[JID]).toMatchObject({ unread: 2, members: ['+12125550123'] });
    expect(texts.conversations[JID]!.messages.map((m) => m.id)).toEqual(['m0']);
    expect(cutoffs()).toEqual({ sms: 30, group_sms: 730 });
  });

  it('a live text (headline) lands once in its conversation: unread and announced when not on screen', async () => {
    const { services, announce } = fakeServices();
    startTexts(services, (k, v) => `${k}:${JSON.stringify(v)}`);
    await vi.waitFor(() => expect(texts.status).toBe('ready'));
    const m = msg('m-live', { body: 'hello there' });
    onHeadline(headline(conv({ unread: 0 }), m));
    onHeadline(headline(conv({ unread: 0 }), m));
    expect(texts.conversations[JID]!.messages.filter((x) => x.id === 'm-live')).toHaveLength(1);
    expect(texts.conversations[JID]!.unread).toBe(3);
    expect(announce).toHaveBeenCalledTimes(1);
    expect(announce.mock.calls[0]![0]).toContain('hello there');
    // Chat's own headlines (no texts element) are not texts.
    onHeadline(xml('<message xmlns="jabber:client" type="headline" from="uc.local"><subject>rooms</subject></message>'));
    expect(Object.keys(texts.conversations)).toEqual([JID]);
  });

  it('a live text not on screen shows a desktop notification (once allowed); clicking it opens that conversation', async () => {
    const shown: Array<{ title: string; options: NotificationOptions; onclick: (() => void) | null; close(): void }> = [];
    vi.stubGlobal(
      'Notification',
      Object.assign(
        function (this: (typeof shown)[number], title: string, options: NotificationOptions) {
          Object.assign(this, { title, options, onclick: null, close: () => undefined });
          shown.push(this);
        },
        { permission: 'granted' },
      ),
    );
    const focus = vi.fn();
    vi.stubGlobal('window', { focus });
    const navigate = vi.fn();
    const { services } = fakeServices();
    const withNav = { ...services, get: (k: unknown) => (k === Navigation ? { navigate } : services.get(k as never)) } as ServiceLookup;
    try {
      startTexts(withNav, (k) => k);
      await vi.waitFor(() => expect(texts.status).toBe('ready'));
      onHeadline(headline(conv({ unread: 0 }), msg('m-notify', { body: '  Running late  ' })));
      expect(shown.map((n) => [n.title, n.options.body, n.options.tag])).toEqual([['(212) 555-0123', 'Running late', `text:${JID}`]]);
      shown[0]!.onclick!();
      expect(focus).toHaveBeenCalled();
      expect(navigate).toHaveBeenCalledWith(`/message/${encodeURIComponent(JID)}`);
      // Our own sent texts are not news.
      onHeadline(headline(conv({ unread: 0 }), msg('m-out', { direction: 'out' })));
      expect(shown).toHaveLength(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a refused send keeps the draft and its files and says why', async () => {
    const { services } = fakeServices({ post: async () => Promise.reject(new ApiError(400, { error: 'banned_number', message: 'no' })) });
    startTexts(services, (k) => k);
    await vi.waitFor(() => expect(texts.status).toBe('ready'));
    const s = texts.conversations[JID]!;
    s.input = 'draft text';
    expect(await sendInConversation(JID)).toBe(false);
    expect(s.error).toBe('banned');
    expect(s.input).toBe('draft text');
  });
});

describe('muted text conversations', () => {
  it('a muted conversation counts its new texts but announces none; muting is saved for every device', async () => {
    const { services, announce, prefs } = fakeServices({ muted: [JID] });
    startTexts(services, (k) => k);
    await vi.waitFor(() => expect(texts.muted).toEqual([JID]));
    await vi.waitFor(() => expect(texts.status).toBe('ready'));
    onHeadline(headline(conv({ unread: 0 }), msg('m-quiet', { body: 'psst' })));
    await vi.waitFor(() => expect(texts.conversations[JID]!.messages.map((m) => m.id)).toContain('m-quiet'));
    expect(texts.conversations[JID]!.unread).toBe(3);
    expect(announce).not.toHaveBeenCalled();
    await toggleTextMute(JID);
    expect(texts.muted).toEqual([]);
    expect(prefs.set).toHaveBeenLastCalledWith('uc-texts-muted', []);
    onHeadline(headline(conv({ unread: 0 }), msg('m-loud', { body: 'hello' })));
    await vi.waitFor(() => expect(announce).toHaveBeenCalled());
  });
});
