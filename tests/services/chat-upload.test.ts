/**
 * Chat files through the real ejabberd's XEP-0363 upload service (mod_http_upload as
 * server/services/ejabberd.ts configures it): the limit shared with the client, a browser-style
 * PUT from the app's origin (CORS preflight), the file then fetched by another member, and a
 * media message that carries it, read back live and from the archive by the product's parser.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { $iq, $msg } from 'strophe.js';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { ATTACHMENT_MAX_TOTAL_BYTES } from '../../src/wire/media';
import { appendMedia, parseSlot, slotRequest } from '../../src/plugins/messaging/engine/mediaStanzas';
import { parseMamResult, parseMessage } from '../../src/plugins/messaging/engine/stanzas';
import { describeFile } from '../../src/plugins/messaging/model/media';
import { uploadHost } from '../../server/services/ejabberd';
import { mintXmppToken } from '../../server/services/xmpp-token';
import { StropheClient } from './peers/xmpp_strophe';

const cfg = inject('servicesConfig');
const origin = cfg.origins[0]!;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

async function client(username: string): Promise<StropheClient> {
  const t = await mintXmppToken(cfg, { username, subject: `user:${username}` });
  const c = await StropheClient.connect(`ws://127.0.0.1:${cfg.ports.xmppHttp}/ws`, `${t.jid}/up-${randomUUID().slice(0, 6)}`, t.token);
  cleanups.push(() => c.close());
  return c;
}

/** A tiny but real PNG (1×1), with random trailing bytes so each run's file is new. */
function png(): Buffer {
  const base = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2e2b9b60000000049454e44ae426082', 'hex');
  return Buffer.concat([base, randomBytes(16)]);
}

describe('ejabberd HTTP upload (XEP-0363)', () => {
  it('announces the shared size limit and refuses a larger file with file-too-large', async () => {
    const alice = await client('alice');
    const info = await alice.iq($iq({ type: 'get', to: uploadHost(cfg) }).c('query', { xmlns: 'http://jabber.org/protocol/disco#info' }));
    expect(info.toString()).toContain('urn:xmpp:http:upload:0');
    expect(info.toString()).toContain(`<value>${ATTACHMENT_MAX_TOTAL_BYTES}</value>`);
    const refused = await alice.iq(slotRequest(uploadHost(cfg), { name: 'big.png', size: ATTACHMENT_MAX_TOTAL_BYTES + 1, type: 'image/png' })).catch((e: Error) => e.message);
    expect(refused).toContain('file-too-large');
    expect(refused).toContain(`<max-file-size>${ATTACHMENT_MAX_TOTAL_BYTES}</max-file-size>`);
  });

  it('takes a PUT from the app page (CORS), serves the file to another member, and the media message reads back live and from the archive', async () => {
    const [alice, bob] = [await client('alice'), await client('bob')];
    const bytes = png();
    const file = { name: 'team photo.png', size: bytes.length, type: 'image/png' };
    const slot = parseSlot(await alice.iq(slotRequest(uploadHost(cfg), file)))!;
    expect(slot.put.startsWith(`${cfg.uploadUrl}/`)).toBe(true);
    expect(slot.get).toBe(slot.put);

    // What the browser does before a cross-origin PUT with a Content-Type.
    const pre = await fetch(slot.put, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'PUT', 'Access-Control-Request-Headers': 'content-type' } });
    expect(pre.status).toBe(200);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');

    // A slot takes exactly the announced size, once.
    expect((await fetch(slot.put, { method: 'PUT', body: new Uint8Array(Buffer.concat([bytes, Buffer.from('x')])), headers: { 'Content-Type': 'image/png', Origin: origin } })).status).toBe(413);
    const put = await fetch(slot.put, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'Content-Type': 'image/png', Origin: origin } });
    expect(put.status).toBe(201);
    expect(put.headers.get('access-control-allow-origin')).toBe('*');
    expect((await fetch(slot.put, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'Content-Type': 'image/png' } })).status).toBe(403);

    const got = await fetch(slot.get, { headers: { Origin: origin } });
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);

    // The message: body = URL (other clients), OOB + our description; bob's copy parses back.
    const media = describeFile(file, slot.get);
    const id = `ucc-V1-up-${randomUUID().slice(0, 8)}`;
    const waiting = bob.waitForMessage((m) => m.stanza.getAttribute('id') === id);
    alice.conn.send(appendMedia($msg({ to: `bob@${cfg.domain}`, type: 'chat', id }).c('body').t(slot.get).up(), media).tree());
    const live = parseMessage((await waiting).stanza, `bob@${cfg.domain}`)!;
    expect(live.media).toEqual(media);

    // From bob's archive (MAM keeps the whole stanza).
    let archived: unknown = null;
    const h = bob.conn.addHandler(
      (el) => {
        const r = parseMamResult(el, `bob@${cfg.domain}`);
        if (r?.message.id === id) archived = r.message.media;
        return true;
      },
      'urn:xmpp:mam:2',
      'message',
      null,
    );
    await bob.mam({ with: `alice@${cfg.domain}`, max: 5 });
    bob.conn.deleteHandler(h);
    expect(archived).toEqual(media);
  });
});
