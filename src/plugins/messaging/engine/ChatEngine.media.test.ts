import { Strophe } from 'strophe.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatPayloadEvent } from '../../../contracts';
import { subscribePayloads } from '../payloads';
import { chat, resetChat } from '../state';
import { ChatEngine, MediaError } from './ChatEngine';
import { testEngineDeps } from './testEngineDeps';

/*
 * Media messages through the engine with a scripted stand-in for the connection and for the PUT
 * (the real ejabberd upload service is exercised by tests/services/chat-upload.test.ts and e2e).
 */
const xml = (s: string) => Strophe.xmlHtmlNode(s).documentElement as unknown as Element;
const BOB = 'bob@uc.local';
const GET = 'http://127.0.0.1:15280/upload/u/s/q3.pdf';
const ROOM = 'g-1@conference.uc.local';

class FakeConnection {
  handlers: Array<(el: Element) => boolean> = [];
  sent: Element[] = [];
  iqs: Element[] = [];
  jid = 'alice@uc.local/uc-test';
  connected = false;
  _proto = {};
  /** How the upload service answers a slot request: a slot, or an error element. */
  slot: (req: Element) => string = () => `<slot xmlns="urn:xmpp:http:upload:0"><put url="http://127.0.0.1:15280/upload/u/s/q3.pdf"/><get url="${GET}"/></slot>`;
  addHandler(fn: (el: Element) => boolean) {
    this.handlers.push(fn);
    return fn;
  }
  deleteHandler() {}
  getUniqueId(p: string) {
    return `${p}-1`;
  }
  connect(_j: string, _p: string, cb: (s: number) => void) {
    this.connected = true;
    queueMicrotask(() => cb(Strophe.Status.CONNECTED));
  }
  reset() {}
  disconnect() {}
  send(el: Element) {
    this.sent.push(el);
  }
  receive(s: string) {
    for (const h of this.handlers.slice()) h(xml(s));
  }
  sendIQ(el: Element, ok: (r: Element) => void, fail: (r: Element) => void) {
    this.iqs.push(el);
    const id = el.getAttribute('id') ?? '';
    queueMicrotask(() => {
      const req = el.getElementsByTagName('request')[0];
      if (req) {
        const answer = this.slot(req);
        return answer.startsWith('<error') ? fail(xml(`<iq type="error" id="${id}">${answer}</iq>`)) : ok(xml(`<iq type="result" id="${id}">${answer}</iq>`));
      }
      const q = el.getElementsByTagName('query')[0];
      if (q?.getAttribute('xmlns') === 'urn:xmpp:mam:2') return ok(xml(`<iq type="result" id="${id}"><fin xmlns="urn:xmpp:mam:2" complete="true"><set xmlns="http://jabber.org/protocol/rsm"><count>0</count></set></fin></iq>`));
      if (q?.getAttribute('xmlns') === 'jabber:iq:private') return ok(xml(`<iq type="result" id="${id}"><query xmlns="jabber:iq:private"><chats xmlns="urn:uc:chats:0">{}</chats></query></iq>`));
      ok(xml(`<iq type="result" id="${id}"/>`));
    });
  }
}

let conn: FakeConnection;
let engine: ChatEngine;
let put: ReturnType<typeof vi.fn>;
let announced: string[];

const api = {
  get: vi.fn(async (path: string) => {
    if (path === '/v1/chat/contacts') return { contacts: [{ user_id: 2, jid: BOB, name: 'Bob Martinez' }] };
    if (path === '/v1/xmpp-token') return { jid: 'alice@uc.local', token: 't', expires_at: new Date(Date.now() + 600_000).toISOString(), ws_url: 'ws://x/ws' };
    if (path === '/v1/chat/rooms')
      return {
        rooms: [
          {
            jid: ROOM,
            subject: 'Launch',
            created_at: '2026-01-01T00:00:00.000Z',
            members: [
              { user_id: 1, jid: 'alice@uc.local', name: 'Alice Nguyen', affiliation: 'owner' },
              { user_id: 2, jid: BOB, name: 'Bob Martinez', affiliation: 'owner' },
              { user_id: 3, jid: 'carol@uc.local', name: 'Carol Okafor', affiliation: 'owner' },
            ],
          },
        ],
      };
    throw new Error(path);
  }),
  post: vi.fn(),
  put: vi.fn(),
  delete: vi.fn(),
};

beforeEach(async () => {
  resetChat();
  conn = new FakeConnection();
  put = vi.fn(async () => new Response(null, { status: 201 }));
  announced = [];
  engine = new ChatEngine(
    testEngineDeps({
      api: api as never,
      createConnection: () => conn as never,
      fetch: put as never,
      announceNew: (_from, body) => announced.push(body),
    }),
  );
  engine.start();
  await vi.waitFor(() => expect(chat.status).toBe('connected'));
});

afterEach(() => engine.dispose());

const pdf = (size = 1200) => new File([new Uint8Array(size)], 'Q3 report.pdf', { type: 'application/pdf' });

describe('media messages', () => {
  it('upload through an XEP-0363 slot of the server, then go out as a message carrying the URL and the description', async () => {
    const media = await engine.upload(pdf());
    const req = conn.iqs.at(-1)!;
    expect(req.getAttribute('to')).toBe('upload.uc.local');
    expect(req.getElementsByTagName('request')[0]!.getAttribute('size')).toBe('1200');
    expect(put).toHaveBeenCalledWith('http://127.0.0.1:15280/upload/u/s/q3.pdf', expect.objectContaining({ method: 'PUT', headers: { 'Content-Type': 'application/pdf' } }));
    expect(media).toEqual({ url: GET, type: 'file', ext: 'pdf', ogName: 'Q3 report.pdf', bytes: 1200 });

    engine.send(BOB, '', media);
    const out = conn.sent.find((e) => e.getElementsByTagName('x').length)!;
    expect(out.getElementsByTagName('body')[0]!.textContent).toBe(GET);
    expect(out.getElementsByTagName('url')[0]!.textContent).toBe(GET);
    expect(out.getElementsByTagName('media')[0]!.getAttribute('ogName')).toBe('Q3 report.pdf');
    expect(out.getElementsByTagName('request')[0]!.getAttribute('xmlns')).toBe('urn:xmpp:receipts');
    expect(chat.sessions[BOB]!.messages.at(-1)).toMatchObject({ mine: true, body: GET, media });
  });

  it('refuse a file of a type not allowed, empty or over 3670016 bytes before anything leaves the browser', async () => {
    await expect(engine.upload(new File(['x'], 'tool.exe'))).rejects.toEqual(new MediaError('extension'));
    await expect(engine.upload(new File([], 'a.png'))).rejects.toEqual(new MediaError('empty'));
    await expect(engine.upload(pdf(3_670_017))).rejects.toEqual(new MediaError('tooLarge'));
    expect(conn.iqs.some((i) => i.getElementsByTagName('request').length)).toBe(false);
    expect(put).not.toHaveBeenCalled();
  });

  it("say why when the server refuses: its size limit, or a failed PUT", async () => {
    conn.slot = () => `<error type="modify"><file-too-large xmlns="urn:xmpp:http:upload:0"><max-file-size>3670016</max-file-size></file-too-large><not-acceptable xmlns="urn:ietf:params:xml:ns:xmpp-stanzas"/></error>`;
    await expect(engine.upload(pdf())).rejects.toEqual(new MediaError('tooLarge'));
    conn.slot = () => `<error type="cancel"><service-unavailable xmlns="urn:ietf:params:xml:ns:xmpp-stanzas"/></error>`;
    await expect(engine.upload(pdf())).rejects.toEqual(new MediaError('uploadFailed'));
    conn.slot = new FakeConnection().slot;
    put.mockResolvedValueOnce(new Response(null, { status: 500 }));
    await expect(engine.upload(pdf())).rejects.toEqual(new MediaError('uploadFailed'));
  });

  it('go to a group as a groupchat message with the same description, and come back from the room as received', async () => {
    const media = await engine.upload(pdf());
    engine.send(ROOM, '', media);
    const out = conn.sent.at(-1)!;
    expect(out.getAttribute('type')).toBe('groupchat');
    expect(out.getAttribute('to')).toBe(ROOM);
    expect(out.getElementsByTagName('url')[0]!.textContent).toBe(GET);
    const id = out.getAttribute('id')!;
    conn.receive(
      `<message xmlns="jabber:client" from="${ROOM}"><event xmlns="http://jabber.org/protocol/pubsub#event"><items node="urn:xmpp:mucsub:nodes:messages"><item>${Strophe.serialize(out).replace(`to="${ROOM}"`, `from="${ROOM}/alice"`)}</item></items></event></message>`,
    );
    expect(chat.sessions[ROOM]!.messages.filter((m) => m.mine).map((m) => [m.status, m.media?.ogName])).toEqual([['received', 'Q3 report.pdf']]);
  });

  it('are read on receipt with their description, and announced by the file name', () => {
    conn.receive(
      `<message xmlns="jabber:client" from="${BOB}/w" to="alice@uc.local/uc-test" type="chat" id="ucc-V1-in"><body>${GET}</body><x xmlns="jabber:x:oob"><url>${GET}</url></x><media xmlns="urn:uc:media:0" type="file" ext="pdf" ogName="Q3 report.pdf" bytes="1200"/></message>`,
    );
    expect(chat.sessions[BOB]!.messages.at(-1)!.media).toEqual({ url: GET, type: 'file', ext: 'pdf', ogName: 'Q3 report.pdf', bytes: 1200 });
    expect(announced).toEqual(['Q3 report.pdf']);
  });
});

// Another plugin's element through the same engine (the meetings' ad-hoc invites): out with the body, in to the listeners.
describe('chat payloads', () => {
  const NS = 'urn:xmpp:uc:adhoc:0';

  it('sends the element with a readable body, and hands a received one to the listeners with the colleague', async () => {
    const got: ChatPayloadEvent[] = [];
    const listening = subscribePayloads(NS, (e) => got.push(e));
    try {
      const id = engine.send(BOB, 'Alice invites you to meet now', undefined, { ns: NS, name: 'invite', attrs: { status: 'offer', inviteId: 'i1' } });
      const out = conn.sent.find((el) => el.getAttribute('id') === id)!;
      expect(out.getElementsByTagName('body')[0]!.textContent).toBe('Alice invites you to meet now');
      const invite = out.getElementsByTagName('invite')[0]!;
      expect([invite.getAttribute('xmlns') ?? invite.namespaceURI, invite.getAttribute('status'), invite.getAttribute('inviteId')]).toEqual([NS, 'offer', 'i1']);

      conn.receive(`<message xmlns="jabber:client" from="${BOB}/w" to="alice@uc.local" type="chat" id="ucc-V1-r"><body>Bob declined</body><invite xmlns="${NS}" status="decline" inviteId="i1"/></message>`);
      expect(got).toEqual([{ payload: { ns: NS, name: 'invite', attrs: { status: 'decline', inviteId: 'i1' } }, peerUserId: 2, peerName: 'Bob Martinez', mine: false, messageId: 'ucc-V1-r', live: true }]);
      // The readable text is in the conversation, the element with it.
      expect(chat.sessions[BOB]!.messages.at(-1)).toMatchObject({ body: 'Bob declined', payload: { attrs: { status: 'decline' } } });
      // The same message again (a reconnect's catch-up) is not news twice.
      conn.receive(`<message xmlns="jabber:client" from="${BOB}/w" to="alice@uc.local" type="chat" id="ucc-V1-r"><body>Bob declined</body><invite xmlns="${NS}" status="decline" inviteId="i1"/></message>`);
      expect(got).toHaveLength(1);
    } finally {
      listening.dispose();
    }
  });
});
