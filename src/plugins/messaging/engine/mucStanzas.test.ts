import { Strophe } from 'strophe.js';
import { describe, expect, it } from 'vitest';
import { parseRoomMamResult, parseRoomMessage } from './mucStanzas';

const xml = (s: string) => Strophe.xmlHtmlNode(s).documentElement as unknown as Element;
const MUC = 'conference.uc.local';
const room = 'g-1@conference.uc.local';

describe('group-chat stanzas', () => {
  it('unwraps a MucSub message (as offline storage delivers it, with its delay) with the room archive id', () => {
    const m = parseRoomMessage(
      xml(`<message xmlns="jabber:client" from="${room}" to="bob@uc.local"><event xmlns="http://jabber.org/protocol/pubsub#event"><items node="urn:xmpp:mucsub:nodes:messages"><item id="i1"><message xmlns="jabber:client" from="${room}/alice" type="groupchat" id="ucc-V1-g"><body>hi all</body><stanza-id xmlns="urn:xmpp:sid:0" by="${room}" id="1700"/></message></item></items></event><delay xmlns="urn:xmpp:delay" stamp="2026-01-02T03:04:05Z"/></message>`),
      MUC,
    );
    expect(m).toEqual({ room, nick: 'alice', id: 'ucc-V1-g', body: 'hi all', stanzaId: '1700', stamp: Date.parse('2026-01-02T03:04:05Z'), error: null, media: null });
  });

  it('ignores other MucSub nodes and anything not from the MUC service', () => {
    expect(parseRoomMessage(xml(`<message xmlns="jabber:client" from="${room}"><event xmlns="http://jabber.org/protocol/pubsub#event"><items node="urn:xmpp:mucsub:nodes:presence"><item/></items></event></message>`), MUC)).toBeNull();
    expect(parseRoomMessage(xml(`<message xmlns="jabber:client" from="bob@uc.local/x" type="groupchat"><body>x</body></message>`), MUC)).toBeNull();
    expect(parseRoomMessage(xml(`<message xmlns="jabber:client" from="${room}/bob" type="chat"><body>x</body></message>`), MUC)).toBeNull();
  });

  it('reads a refusal from the room with its condition', () => {
    const m = parseRoomMessage(xml(`<message xmlns="jabber:client" from="${room}" type="error" id="ucc-V1-x"><error type="auth"><forbidden xmlns="urn:ietf:params:xml:ns:xmpp-stanzas"/><text xmlns="urn:ietf:params:xml:ns:xmpp-stanzas">no</text></error></message>`), MUC)!;
    expect(m).toMatchObject({ id: 'ucc-V1-x', error: 'forbidden' });
  });

  it('reads a room archive result, author from the nickname', () => {
    const r = parseRoomMamResult(
      xml(`<message xmlns="jabber:client" from="${room}" to="bob@uc.local/x"><result xmlns="urn:xmpp:mam:2" queryid="q1" id="1800"><forwarded xmlns="urn:xmpp:forward:0"><delay xmlns="urn:xmpp:delay" stamp="2026-01-02T03:04:05Z"/><message xmlns="jabber:client" from="${room}/carol" type="groupchat" id="m9"><body>older</body></message></forwarded></result></message>`),
      room,
    )!;
    expect(r).toEqual({ queryid: 'q1', message: { room, nick: 'carol', id: 'm9', body: 'older', stanzaId: '1800', stamp: Date.parse('2026-01-02T03:04:05Z'), error: null, media: null } });
    expect(parseRoomMamResult(xml(`<message xmlns="jabber:client" from="other@conference.uc.local"><result xmlns="urn:xmpp:mam:2" queryid="q1" id="1"><forwarded xmlns="urn:xmpp:forward:0"><message from="x" type="groupchat"><body>x</body></message></forwarded></result></message>`), room)).toBeNull();
  });
});
