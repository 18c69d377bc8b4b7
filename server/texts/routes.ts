import multipart from '@fastify/multipart';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import { IdParam } from '../../src/wire/common';
import { ROLE } from '../../src/wire/profile';
import {
  ATTACHMENT_MAX_TOTAL_BYTES,
  attachmentProblem,
  CarrierAccountResponse,
  type CarrierMessage,
  extensionOf,
  InboundText,
  isBanned,
  mediaKindOf,
  type MessagingDidsResponse,
  SendTextRequest,
  type SendTextResponse,
  SMS_MAX_CHARS,
  type TextConversation,
  type TextConversationsResponse,
  type TextMedia,
  type TextMessage,
  type TextMessagesResponse,
  textBody,
  usNumber,
} from '../../src/wire/texts';
import type { Queryable } from '../db/types';
import { ApiError, forbidden, notFound, parseOrThrow, unauthorized } from '../errors';
import { findBadText } from '../input-guard';
import { sniffMedia } from '../media/sniff';
import { readUpload } from '../media/upload';
import type { RouteContext } from '../context';
import { loopbackCarrier, type CarrierAdapter } from './carrier';
import { ejabberdDelivery, type TextDelivery } from './delivery';
import {
  addAttachment,
  addMessage,
  attachmentsOf,
  bannedOf,
  carrierAccount,
  conversationRow,
  conversationWire,
  didsOf,
  ensureConversation,
  firstSeenInbound,
  listConversations,
  loopbackMessages,
  messagesPage,
  numberOwners,
  organizationBySecret,
  organizationNumbers,
  serverMessageId,
  setRead,
  webhookSecret,
  type StoredAttachment,
} from './repository';

export interface TextsOptions {
  /** How texts reach the user's clients (default: through ejabberd). */
  delivery?: TextDelivery;
  carrier?: CarrierAdapter;
}

/** A webhook body may carry the largest MMS base64-encoded, plus the JSON around it. */
const WEBHOOK_BODY_LIMIT = Math.ceil((ATTACHMENT_MAX_TOTAL_BYTES * 4) / 3) + 64 * 1024;
const E164 = /^\+[1-9]\d{6,14}$/;
/** A picture or video is stored with the type its content shows; anything else is a download. */
function contentTypeOf(name: string, bytes: Buffer): string | null {
  const kind = mediaKindOf(name);
  return kind === 'image' || kind === 'video' ? sniffMedia(kind, bytes) : 'application/octet-stream';
}

const badRequest = (code: string, message: string) => new ApiError(400, code, message);

/** A page size from the query: out of range is clamped and anything not a number is the default, as the clients have always been answered. */
const clampedLimit = (max: number, fallback: number) =>
  z.pipe(
    z.optional(z.string()),
    z.transform((v) => Math.min(max, Math.max(1, Number(v ?? fallback) || fallback))),
  );
const JidParam = z.object({ jid: z.string() });
const MessagesQuery = z.object({ before: z.optional(z.string()), limit: clampedLimit(100, 25) });
/** No body, or no read_at, marks the conversation read now. */
const ReadBody = z.optional(z.nullable(z.object({ read_at: z.optional(z.nullable(z.string())) })));
/** Caught before SendTextRequest, so that an overlong text gets its own code rather than a generic validation failure. */
const TooLongText = z.object({ body: z.string().check(z.minLength(SMS_MAX_CHARS + 1)) });
const AttachmentIdParam = z.object({ id: z.string() });
const OrgParam = z.object({ org: IdParam.shape.id });
const LoopbackQuery = z.object({ to: z.optional(z.string()), from: z.optional(z.string()), limit: clampedLimit(200, 50) });

export const mediaOf = (a: StoredAttachment): TextMedia => ({
  id: a.id,
  url: `/v1/texts/attachments/${a.id}`,
  type: mediaKindOf(a.file_name) ?? 'file',
  ext: a.ext,
  ogName: a.file_name,
  bytes: a.size,
});

/**
 * Texts (SMS/MMS): messaging numbers, sending through the carrier adapter, the inbound webhook,
 * conversations and their history, attachments (owner only), and the loopback carrier's own API.
 * Every text is stored here and pushed to every client of the user through ejabberd.
 */
export function registerTextRoutes(app: FastifyInstance, ctx: RouteContext, opts: TextsOptions = {}): void {
  const { db, requireViewer, services } = ctx;
  const delivery = opts.delivery ?? ejabberdDelivery(services);
  const carrier = opts.carrier ?? loopbackCarrier;

  async function caller(request: FastifyRequest) {
    const viewer = await requireViewer(request);
    // Texts are messaging, and the limited-access role has none (as it has no chat).
    if (viewer.roleId === ROLE.LIMITED_ACCESS) throw forbidden('Texts are not available to limited-access users');
    return viewer;
  }

  /** Live delivery is best effort: the text is stored, and clients read the store when they (re)connect. */
  async function push(log: FastifyBaseLogger, username: string, userId: number, jid: string, message: TextMessage): Promise<TextConversation> {
    const conversation = (await conversationWire(db, userId, jid))!;
    try {
      await delivery.deliver(username, conversation, message);
    } catch (err) {
      log.warn({ err, jid }, 'text stored but not pushed to the clients (chat server unreachable)');
    }
    return conversation;
  }

  /**
   * A text arriving for numbers of this deployment: every user with one of the `to` numbers gets it
   * in the conversation with the sender and the other recipients.
   */
  async function receive(
    log: FastifyBaseLogger,
    organizationId: number | null,
    text: { from: string; to: readonly string[]; body: string; files: ReadonlyArray<{ name: string; contentType: string; bytes: Buffer }> },
  ): Promise<number> {
    const owners = await numberOwners(db, text.to, organizationId);
    let delivered = 0;
    for (const owner of owners) {
      if (text.files.length && !owner.mms_enabled) continue;
      const members = [text.from, ...text.to.filter((n) => n !== owner.number)];
      const media: TextMedia[] = [];
      for (const f of text.files) {
        media.push(
          mediaOf(
            // The carrier's declared type is not trusted either; content that is not what its name says is served as a download.
            await addAttachment(db, { user_id: owner.user_id, file_name: f.name, ext: extensionOf(f.name), content_type: contentTypeOf(f.name, f.bytes) ?? 'application/octet-stream', size: f.bytes.length, bytes: f.bytes }),
          ),
        );
      }
      const at = new Date();
      const conv = await ensureConversation(db, services.domain, owner.user_id, owner.number, members, at);
      const message = await addMessage(db, conv.id, { id: serverMessageId(), direction: 'in', from: text.from, body: text.body, media, status: 'delivered', sent_at: at.toISOString() });
      await push(log, owner.username, owner.user_id, conv.jid, message);
      delivered++;
    }
    return delivered;
  }

  app.get('/v1/p1/messaging-dids', async (request): Promise<MessagingDidsResponse> => {
    const me = await caller(request);
    const dids = await didsOf(db, me.userId);
    // The organisation's banned list is for those who can text: a user without a number gets none.
    return { dids, banned_numbers: dids.length ? await bannedOf(db, me.organizationId) : [] };
  });

  app.get('/v1/texts/conversations', async (request): Promise<TextConversationsResponse> => {
    const me = await caller(request);
    return { conversations: await listConversations(db, me.userId) };
  });

  app.get('/v1/texts/conversations/:jid/messages', async (request): Promise<TextMessagesResponse> => {
    const me = await caller(request);
    const { jid } = parseOrThrow(JidParam, request.params, 'conversation');
    const q = parseOrThrow(MessagesQuery, request.query, 'messages query');
    const conv = await conversationRow(db, me.userId, jid);
    if (!conv) throw notFound('No such conversation');
    return messagesPage(db, conv.id, q.before || null, q.limit);
  });

  app.put('/v1/texts/conversations/:jid/read', async (request, reply) => {
    const me = await caller(request);
    const { jid } = parseOrThrow(JidParam, request.params, 'conversation');
    const body = parseOrThrow(ReadBody, request.body, 'read marker');
    const at = typeof body?.read_at === 'string' ? new Date(body.read_at) : new Date();
    // JavaScript takes years PostgreSQL refuses (negative, six digits): ISO 8601's 1–9999 only.
    const year = at.getUTCFullYear();
    if (Number.isNaN(at.getTime()) || year < 1 || year > 9999) throw badRequest('invalid_read_at', 'read_at must be an ISO 8601 time between the years 1 and 9999');
    if (!(await setRead(db, me.userId, jid, at))) throw notFound('No such conversation');
    return reply.code(204).send();
  });

  app.post('/v1/texts/messages', async (request, reply): Promise<SendTextResponse> => {
    const me = await caller(request);
    if (TooLongText.safeParse(request.body).success) throw badRequest('text_too_long', `A text has at most ${SMS_MAX_CHARS} characters`);
    const req = parseOrThrow(SendTextRequest, request.body, 'text');
    const did = (await didsOf(db, me.userId)).find((d) => d.number === req.from);
    if (!did) throw badRequest('not_your_number', 'This number is not one of your messaging numbers');
    const invalid = req.to.filter((n) => !usNumber(n));
    if (invalid.length) throw new ApiError(400, 'invalid_recipient', 'Recipients must be US numbers', invalid.map((n) => ({ path: 'to', message: n })));
    // The sender's own number is never a recipient.
    const to = [...new Set(req.to.map((n) => usNumber(n)!))].filter((n) => n !== did.number);
    if (!to.length) throw badRequest('recipient_required', 'A text needs a recipient');
    const banned = await bannedOf(db, me.organizationId);
    const refused = to.filter((n) => isBanned(n, banned));
    if (refused.length) throw new ApiError(400, 'banned_number', `Texts to ${refused.join(', ')} are not allowed`, refused.map((n) => ({ path: 'to', message: n })));
    const files = await attachmentsOf(db, me.userId, req.media);
    if (files.length !== new Set(req.media).size) throw notFound('No such attachment');
    const problem = attachmentProblem(files.map((f) => ({ name: f.file_name, size: f.size })), did.mms_enabled);
    if (problem === 'mmsDisabled') throw badRequest('mms_disabled', 'Picture and file messages (MMS) are not enabled for this number');
    if (problem === 'extension') throw new ApiError(415, 'extension_not_allowed', 'This type of file cannot be sent');
    if (problem === 'tooLarge') throw new ApiError(413, 'attachments_too_large', `Attachments may total at most ${ATTACHMENT_MAX_TOTAL_BYTES} bytes`);
    const body = textBody(req.body, files.length > 0);
    if (body === null) throw badRequest('message_required', 'A text needs a message or an attachment');

    await carrier.send(db, { organizationId: me.organizationId, from: did.number, to, body, media: files.map((f) => ({ filename: f.file_name, content_type: f.content_type, bytes: f.size })) });
    const at = new Date();
    const conv = await ensureConversation(db, services.domain, me.userId, did.number, to, at);
    const message = await addMessage(db, conv.id, { id: req.id ?? serverMessageId(), direction: 'out', from: did.number, body, media: files.map(mediaOf), status: 'delivered', sent_at: at.toISOString() });
    const conversation = await push(request.log, me.username, me.userId, conv.jid, message);

    // The loopback carrier serves this deployment's own numbers: they receive the text, as from a real carrier.
    if (carrier === loopbackCarrier) {
      const withBytes = files.length ? await attachmentsOf(db, me.userId, req.media, true) : [];
      await receive(request.log, null, {
        from: did.number,
        to,
        body,
        files: withBytes.map((f) => ({ name: f.file_name, contentType: f.content_type, bytes: Buffer.from(f.bytes!) })),
      });
    }
    reply.code(201);
    return { conversation, message };
  });

  app.get('/v1/texts/carrier', async (request): Promise<CarrierAccountResponse> => {
    const me = await caller(request);
    if (me.roleId !== ROLE.ACCOUNT_OWNER && me.roleId !== ROLE.ADMINISTRATOR) throw forbidden('Only account owners and administrators see the carrier settings');
    const account = await carrierAccount(db, me.organizationId);
    return { carrier: account.carrier, webhook_url: `/v1/p1/messaging-webhook/${me.organizationId}`, secret: account.secret };
  });

  // Attachments: stored per owner, served to that owner only.
  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: ATTACHMENT_MAX_TOTAL_BYTES, files: 1, fields: 2 } });
    scope.post('/v1/texts/attachments', async (request, reply): Promise<TextMedia> => {
      const me = await caller(request);
      const dids = await didsOf(db, me.userId);
      if (!dids.some((d) => d.mms_enabled)) throw badRequest('mms_disabled', 'Picture and file messages (MMS) are not enabled for your numbers');
      if (!request.isMultipart()) throw new ApiError(415, 'unsupported_media_type', 'Send the file as multipart/form-data in the field "file"');
      const upload = await readUpload(request, () => new ApiError(413, 'attachments_too_large', `Attachments may total at most ${ATTACHMENT_MAX_TOTAL_BYTES} bytes`));
      if (!upload || upload.file.fieldname !== 'file') throw badRequest('file_required', 'A file in the field "file" is required');
      const { file, bytes } = upload;
      const name = file.filename.slice(0, 200);
      if (!mediaKindOf(name)) throw new ApiError(415, 'extension_not_allowed', 'This type of file cannot be sent');
      const contentType = contentTypeOf(name, bytes);
      if (!contentType) throw new ApiError(415, 'content_mismatch', `The content of ${name} is not a ${mediaKindOf(name)} of a supported format`);
      const stored = await addAttachment(db, { user_id: me.userId, file_name: name, ext: extensionOf(name), content_type: contentType, size: bytes.length, bytes });
      reply.code(201);
      return mediaOf(stored);
    });
  });

  app.get('/v1/texts/attachments/:id', async (request, reply) => {
    const me = await caller(request);
    const { id } = parseOrThrow(AttachmentIdParam, request.params, 'attachment id');
    const [a] = await attachmentsOf(db, me.userId, [id], true);
    if (!a) throw notFound('No such attachment');
    const kind = mediaKindOf(a.file_name);
    const bytes = Buffer.from(a.bytes!);
    // Checked again on the way out, so that rows stored before content was checked are safe too.
    const sniffed = kind === 'image' || kind === 'video' ? sniffMedia(kind, bytes) : null;
    return reply
      .header('content-type', sniffed ?? 'application/octet-stream')
      .header('content-disposition', `${sniffed ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(a.file_name)}`)
      .header('cache-control', 'private, max-age=3600')
      .header('content-security-policy', "default-src 'none'")
      .send(bytes);
  });

  // The inbound webhook and the loopback carrier's API: authenticated by the organisation's secret.
  app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) => done(null, body));

    scope.post('/v1/p1/messaging-webhook/:org', { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request) => {
      const { org } = parseOrThrow(OrgParam, request.params, 'organisation', () => notFound('No such organisation'));
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      await verifySignature(db, org, raw, request.headers['x-uc-signature']);
      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new ApiError(400, 'invalid_json', 'Request body is not valid JSON');
      }
      const bad = findBadText(json, 'body');
      if (bad) throw new ApiError(400, 'invalid_text', `Invalid body: ${bad.message}`, [bad]);
      const text = parseOrThrow(InboundText, json, 'inbound text');
      for (const n of [text.from, ...text.to]) if (!E164.test(n)) throw badRequest('invalid_number', `Not an E.164 number: ${n}`);
      const ours = await organizationNumbers(db, org, text.to);
      if (!ours.length) throw notFound('None of the recipients is a messaging number of this organisation');
      const files = text.media.map((m) => ({ name: m.filename, contentType: m.content_type, bytes: Buffer.from(m.data_base64, 'base64') }));
      const problem = attachmentProblem(files.map((f) => ({ name: f.name, size: f.bytes.length })), ours.some((d) => d.mms_enabled));
      if (problem === 'mmsDisabled') throw badRequest('mms_disabled', 'MMS is not enabled for this number');
      if (problem === 'extension') throw new ApiError(415, 'extension_not_allowed', 'This type of file cannot be received');
      if (problem === 'tooLarge') throw new ApiError(413, 'attachments_too_large', `Attachments may total at most ${ATTACHMENT_MAX_TOTAL_BYTES} bytes`);
      const body = textBody(text.text, files.length > 0);
      if (body === null) throw badRequest('message_required', 'A text needs a message or an attachment');
      // A provider retries when unsure: the same id is taken in once.
      if (!(await firstSeenInbound(db, org, text.id))) return { accepted: true, duplicate: true, delivered_to: 0 };
      const delivered = await receive(request.log, org, { from: text.from, to: text.to, body, files });
      return { accepted: true, duplicate: false, delivered_to: delivered };
    });

    scope.get('/carrier/loopback/v1/messages', async (request): Promise<{ messages: CarrierMessage[] }> => {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
      const org = match ? await organizationBySecret(db, match[1]!) : null;
      if (org === null) throw unauthorized('The carrier API needs the organisation secret as a bearer token');
      const q = parseOrThrow(LoopbackQuery, request.query, 'carrier messages query');
      const rows = await loopbackMessages(db, org, q);
      return {
        messages: rows.map((r) => ({
          id: r.carrier_id,
          from: r.from_number,
          to: r.to_numbers,
          text: r.body,
          media: (typeof r.media === 'string' ? JSON.parse(r.media) : r.media) as CarrierMessage['media'],
          created_at: new Date(r.created_at).toISOString(),
        })),
      };
    });
  });
}

/** `X-UC-Signature: sha256=<hex HMAC-SHA256 of the raw body with the organisation's secret>`. */
async function verifySignature(db: Queryable, org: number, raw: Buffer, header: string | string[] | undefined): Promise<void> {
  const secret = await webhookSecret(db, org);
  const given = typeof header === 'string' ? /^sha256=([0-9a-f]{64})$/i.exec(header.trim())?.[1] : undefined;
  if (!given) throw unauthorized('Missing or malformed X-UC-Signature header');
  const expected = createHmac('sha256', secret ?? 'no-account').update(raw).digest();
  if (!secret || !timingSafeEqual(expected, Buffer.from(given, 'hex'))) throw unauthorized('Invalid signature');
}

/** The signature header value for a body (tests, and providers wiring this up). */
export const webhookSignature = (secret: string, body: string | Buffer) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
