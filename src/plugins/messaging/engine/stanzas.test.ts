import { Strophe } from 'strophe.js';
import { describe, expect, it } from 'vitest';
import { compareIds } from './ChatEngine';
import { subscribePayloads } from '../payloads';
import { parseMamFin, parseMamResult, parseMessage, parsePresence, parseStoredChats } from './stanzas';

const xml = (s: string) => Strophe.xmlHtmlNode(s).documentElement as unknown as Element;
const me = 'alice@uc.local';

describe('stanzas', () => {
  it('reads a chat message with receipt request, chat state, delay and our own stanza-id', () => {
    const m = parseMessage(
      xml(`<message xmlns="jabber:client" from="Bob@uc.local/web" to="alice@uc.local/x" type="chat" id="ucc-V1-a"><body>&lt;b&gt;hi&lt;/b&gt;</body><request xmlns="urn:xmpp:receipts"/><active xmlns="http://jabber.org/protocol/chatstates"/><delay xmlns="urn:xmpp:delay" stamp="2026-01-02T03:04:05Z"/><stanza-id xmlns="urn:xmpp:sid:0" by="other@uc.local" id="9"/><stanza-id xmlns="urn:xmpp:sid:0" by="alice@uc.local" id="1700"/></message>`),
      me,
    )!;
    expect(m).toMatchObject({ id: 'ucc-V1-a', from: 'bob@uc.local', to: 'alice@uc.local', type: 'chat', body: '<b>hi</b>', stanzaId: '1700', composing: 'active', receiptRequested: true, carbon: null });
    expect(m.stamp).toBe(Date.parse('2026-01-02T03:04:05Z'));
  });

  it('reads the element of a namespace another plugin listens to (an ad-hoc invite), and none of any other', () => {
    const stanza = `<message xmlns="jabber:client" from="bob@uc.local/w" to="alice@uc.local" type="chat" id="ucc-V1-i"><body>Bob invites you</body><invite xmlns="urn:xmpp:uc:adhoc:0" status="offer" inviteId="x1" expires="5"/><other xmlns="urn:example:other" a="b"/></message>`;
    expect(parseMessage(xml(stanza), me)!.payload).toBeNull();
    const listening = subscribePayloads('urn:xmpp:uc:adhoc:0', () => undefined);
    try {
      expect(parseMessage(xml(stanza), me)).toMatchObject({ body: 'Bob invites you', payload: { ns: 'urn:xmpp:uc:adhoc:0', name: 'invite', attrs: { status: 'offer', inviteId: 'x1', expires: '5' } } });
    } finally {
      listening.dispose();
    }
    expect(parseMessage(xml(stanza), me)!.payload).toBeNull();
  });

  it('reads receipts, composing-only messages and errors', () => {
    expect(parseMessage(xml(`<message xmlns="jabber:client" from="bob@uc.local/w" id="r1"><received xmlns="urn:xmpp:receipts" id="ucc-V1-a"/></message>`), me)!.receiptFor).toBe('ucc-V1-a');
    const c = parseMessage(xml(`<message xmlns="jabber:client" from="bob@uc.local/w" type="chat"><composing xmlns="http://jabber.org/protocol/chatstates"/></message>`), me)!;
    expect(c.body).toBeNull();
    expect(c.composing).toBe('composing');
    expect(parseMessage(xml(`<message xmlns="jabber:client" from="bob@uc.local" type="error" id="ucc-V1-z"><error type="cancel"/></message>`), me)!.error).toBe(true);
  });

  it('unwraps carbons from our own account only', () => {
    const sent = `<message xmlns="jabber:client" from="alice@uc.local" to="alice@uc.local/x"><sent xmlns="urn:xmpp:carbons:2"><forwarded xmlns="urn:xmpp:forward:0"><message xmlns="jabber:client" from="alice@uc.local/phone" to="bob@uc.local" type="chat" id="ucc-V1-p"><body>from my phone</body></message></forwarded></sent></message>`;
    expect(parseMessage(xml(sent), me)).toMatchObject({ carbon: 'sent', from: 'alice@uc.local', to: 'bob@uc.local', body: 'from my phone' });
    expect(parseMessage(xml(sent.replace('from="alice@uc.local" to=', 'from="mallory@uc.local" to=')), me)).toBeNull();
  });

  it('reads MAM results and the fin (historyStatus)', () => {
    const r = parseMamResult(
      xml(`<message xmlns="jabber:client" to="alice@uc.local/x"><result xmlns="urn:xmpp:mam:2" queryid="q1" id="1650"><forwarded xmlns="urn:xmpp:forward:0"><delay xmlns="urn:xmpp:delay" stamp="2026-01-01T00:00:00Z"/><message xmlns="jabber:client" from="bob@uc.local/w" to="alice@uc.local" type="chat" id="m1"><body>old</body></message></forwarded></result></message>`),
      me,
    )!;
    expect(r).toMatchObject({ queryid: 'q1', id: '1650', message: { id: 'm1', body: 'old', stanzaId: '1650', stamp: Date.parse('2026-01-01T00:00:00Z') } });
    const fin = parseMamFin(xml(`<iq xmlns="jabber:client" type="result"><fin xmlns="urn:xmpp:mam:2" complete="true"><set xmlns="http://jabber.org/protocol/rsm"><first>1</first><last>9</last><count>25</count></set></fin></iq>`));
    expect(fin).toEqual({ complete: true, first: '1', last: '9', count: 25 });
    expect(parseMamFin(xml(`<iq xmlns="jabber:client" type="result"><fin xmlns="urn:xmpp:mam:2"><set xmlns="http://jabber.org/protocol/rsm"/></fin></iq>`))).toEqual({ complete: false, first: null, last: null, count: null });
  });

  it('reads presence and the stored read positions', () => {
    expect(parsePresence(xml(`<presence xmlns="jabber:client" from="Bob@uc.local/w"><show>dnd</show><status>donotdisturb</status></presence>`))).toMatchObject({ from: 'bob@uc.local', resource: 'w', wire: { show: 'dnd', status: 'donotdisturb' } });
    expect(parsePresence(xml(`<presence xmlns="jabber:client" from="bob@uc.local/w" type="unavailable"/>`)).wire).toEqual({ type: 'unavailable' });
    expect(parseStoredChats(xml(`<iq xmlns="jabber:client" type="result"><query xmlns="jabber:iq:private"><chats xmlns="urn:uc:chats:0">{"bob@uc.local":{"read":5,"muted":true}}</chats></query></iq>`))).toEqual({ 'bob@uc.local': { read: 5, muted: true } });
    expect(parseStoredChats(xml(`<iq xmlns="jabber:client" type="result"><query xmlns="jabber:iq:private"><chats xmlns="urn:uc:chats:0"/></query></iq>`))).toEqual({});
  });

  it('orders archive ids numerically', () => {
    expect(compareIds('1700', '999')).toBeGreaterThan(0);
    expect(compareIds('1600', '1700')).toBeLessThan(0);
    expect(compareIds('5', '5')).toBe(0);
  });
});
