import { $msg, Strophe } from 'strophe.js';
import { describe, expect, it } from 'vitest';
import { appendMedia, parseSlot, readMedia, slotRequest } from './mediaStanzas';
import { parseRoomMamResult, parseRoomMessage } from './mucStanzas';
import { parseMamResult, parseMessage } from './stanzas';

const xml = (s: string) => Strophe.xmlHtmlNode(s).documentElement as unknown as Element;
const me = 'alice@uc.local';
const URL_ = 'http://127.0.0.1:15280/upload/ab12/Xy9/holiday_photo.PNG';
const photo = { url: URL_, type: 'image' as const, ext: 'png', ogName: 'holiday photo.PNG', bytes: 204800 };

describe('media stanzas', () => {
  it('build a media message (XEP-0066 URL + our type/ext/ogName/bytes) that reads back the same, live and from the archive', () => {
    const built = appendMedia($msg({ from: 'bob@uc.local/w', to: me, type: 'chat', id: 'ucc-V1-m' }).c('body').t(URL_).up(), photo).tree();
    const wire = Strophe.serialize(built);
    expect(wire).toContain('<x xmlns="jabber:x:oob"><url>');
    const ours = built.getElementsByTagName('media')[0]!;
    expect(['xmlns', 'type', 'ext', 'ogName', 'bytes'].map((a) => ours.getAttribute(a))).toEqual(['urn:uc:media:0', 'image', 'png', 'holiday photo.PNG', '204800']);
    const live = parseMessage(xml(wire), me)!;
    expect(live.body).toBe(URL_);
    expect(live.media).toEqual(photo);
    const archived = parseMamResult(
      xml(`<message xmlns="jabber:client" to="${me}/x"><result xmlns="urn:xmpp:mam:2" queryid="q" id="17"><forwarded xmlns="urn:xmpp:forward:0"><delay xmlns="urn:xmpp:delay" stamp="2026-01-01T00:00:00Z"/>${wire}</forwarded></result></message>`),
      me,
    )!;
    expect(archived.message.media).toEqual(photo);
  });

  it('read group messages with media, live (MucSub) and from the room archive', () => {
    const inner = Strophe.serialize(appendMedia($msg({ from: 'g-1@conference.uc.local/bob', type: 'groupchat', id: 'g1' }).c('body').t(URL_).up(), { ...photo, bytes: null }).tree());
    const live = parseRoomMessage(
      xml(`<message xmlns="jabber:client" from="g-1@conference.uc.local" to="${me}"><event xmlns="http://jabber.org/protocol/pubsub#event"><items node="urn:xmpp:mucsub:nodes:messages"><item>${inner}</item></items></event></message>`),
      'conference.uc.local',
    )!;
    expect(live.media).toEqual({ ...photo, bytes: null });
    const mam = parseRoomMamResult(
      xml(`<message xmlns="jabber:client" from="g-1@conference.uc.local"><result xmlns="urn:xmpp:mam:2" queryid="q" id="9"><forwarded xmlns="urn:xmpp:forward:0">${inner}</forwarded></result></message>`),
      'g-1@conference.uc.local',
    )!;
    expect(mam.message.media?.ogName).toBe('holiday photo.PNG');
  });

  it("take another client's bare OOB link: name from <desc> or the URL, kind and extension from the name", () => {
    const m = readMedia(xml(`<message xmlns="jabber:client"><body>see</body><x xmlns="jabber:x:oob"><url>https://files.example/a/Quarterly%20report.pdf</url></x></message>`));
    expect(m).toEqual({ url: 'https://files.example/a/Quarterly%20report.pdf', type: 'file', ext: 'pdf', ogName: 'Quarterly report.pdf', bytes: null });
    const v = readMedia(xml(`<message xmlns="jabber:client"><x xmlns="jabber:x:oob"><url>https://f.example/x/1</url><desc>clip.MP4</desc></x></message>`));
    expect(v).toMatchObject({ type: 'video', ext: 'mp4', ogName: 'clip.MP4' });
  });

  it('never follow a link that is not http(s), and ignore nonsense fields', () => {
    expect(readMedia(xml(`<message xmlns="jabber:client"><x xmlns="jabber:x:oob"><url>javascript:alert(1)</url></x></message>`))).toBeNull();
    expect(readMedia(xml(`<message xmlns="jabber:client"><x xmlns="jabber:x:oob"><url>data:text/html,hi</url></x></message>`))).toBeNull();
    expect(readMedia(xml(`<message xmlns="jabber:client"><body>plain</body></message>`))).toBeNull();
    const odd = readMedia(xml(`<message xmlns="jabber:client"><x xmlns="jabber:x:oob"><url>${URL_}</url></x><media xmlns="urn:uc:media:0" type="script" ogName="a.png" bytes="-3"/></message>`));
    expect(odd).toMatchObject({ type: 'image', ext: 'png', bytes: null });
  });

  it('ask for an XEP-0363 slot and read its put/get URLs and allowed headers only', () => {
    const req = slotRequest('upload.uc.local', { name: 'a.png', size: 12, type: 'image/png' }).tree();
    expect(req.getAttribute('to')).toBe('upload.uc.local');
    const r = req.getElementsByTagName('request')[0]!;
    expect([r.getAttribute('xmlns'), r.getAttribute('filename'), r.getAttribute('size'), r.getAttribute('content-type')]).toEqual(['urn:xmpp:http:upload:0', 'a.png', '12', 'image/png']);
    expect(slotRequest('u', { name: 'x.pdf', size: 1, type: '' }).tree().getElementsByTagName('request')[0]!.getAttribute('content-type')).toBe('application/octet-stream');
    const slot = parseSlot(
      xml(
        `<iq xmlns="jabber:client" type="result"><slot xmlns="urn:xmpp:http:upload:0"><put url="http://h/upload/p"><header name="Authorization">Basic x</header><header name="X-Evil">1</header></put><get url="http://h/upload/g"/></slot></iq>`,
      ),
    );
    expect(slot).toEqual({ put: 'http://h/upload/p', get: 'http://h/upload/g', headers: { Authorization: 'Basic x' } });
    expect(parseSlot(xml(`<iq xmlns="jabber:client" type="result"><slot xmlns="urn:xmpp:http:upload:0"><put url="file:///etc"/><get url="http://h/g"/></slot></iq>`))).toBeNull();
  });
});
