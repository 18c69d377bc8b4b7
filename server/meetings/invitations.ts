import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { ServicesConfig } from '../services/layout';
import { xmppApi } from '../services/xmpp-api';
import { xmppJid } from '../services/xmpp-token';
import { meetingIcs, type IcsMeeting } from './ics';

/** A chat message from the booker to a colleague (the default goes through ejabberd). */
export type ChatNoticeSender = (fromUsername: string, toUsername: string, body: string) => Promise<void>;

export function ejabberdChatNotice(services: ServicesConfig): ChatNoticeSender {
  const api = xmppApi(services);
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return async (from, to, body) => {
    await api.call(
      'send_stanza',
      { from: xmppJid(services, from), to: xmppJid(services, to), stanza: `<message xmlns='jabber:client' type='chat'><body>${esc(body)}</body></message>` },
      5000,
    );
  };
}

export type Change = 'created' | 'updated' | 'cancelled';

export interface InvitationWork {
  meeting: IcsMeeting;
  bookerUsername: string;
  /** Guests by e-mail, and what each is sent: REQUEST (new or changed) or CANCEL (removed, or the meeting deleted). */
  guests: Array<{ email: string; method: 'REQUEST' | 'CANCEL' }>;
  /** Colleagues (usernames) told in chat, and what happened for them. */
  colleagues: Array<{ username: string; change: Change }>;
  when: string;
}

export interface InvitationsOptions {
  smtpUrl?: string | undefined;
  mailFrom?: string;
  /** null: no chat notice is sent (API tests without ejabberd). */
  chat: ChatNoticeSender | null;
}

const SUBJECT = { REQUEST: 'Invitation', CANCEL: 'Cancelled' } as const;

export function chatNoticeText(change: Change, booker: string, name: string, when: string, url: string): string {
  if (change === 'cancelled') return `${booker} cancelled the meeting "${name}" (${when}).`;
  const verb = change === 'created' ? 'invited you to' : 'changed';
  return `${booker} ${verb} the meeting "${name}", ${when}. Join: ${url}`;
}

/**
 * Invitations and their updates: guests get an e-mail with the meeting's .ics (REQUEST with the
 * next SEQUENCE, or CANCEL), colleagues a chat message. Best effort after the change is stored:
 * each failure is logged, none undoes the change.
 */
export function invitationSender(log: FastifyBaseLogger, opts: InvitationsOptions) {
  const mailer = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null;
  const mailFrom = opts.mailFrom ?? 'Acme UC meetings <meetings@uc.invalid>';

  async function mail(work: InvitationWork, email: string, method: 'REQUEST' | 'CANCEL'): Promise<void> {
    if (!mailer) return;
    const m = work.meeting;
    const ics = meetingIcs(m, method);
    const lines =
      method === 'CANCEL'
        ? [`${m.organizer.name} cancelled "${m.name}" (${work.when}).`]
        : [`${m.organizer.name} invites you to "${m.name}", ${work.when}.`, `Join: ${m.url}`, `Meeting ID: ${m.accessCode}`, m.description].filter(Boolean);
    await mailer.sendMail({
      from: mailFrom,
      replyTo: { name: m.organizer.name, address: m.organizer.email },
      to: email,
      subject: `${SUBJECT[method]}: ${m.name} (${work.when})`,
      text: lines.join('\n'),
      attachments: [{ filename: method === 'CANCEL' ? 'cancel.ics' : 'invite.ics', content: ics, contentType: `text/calendar; charset=utf-8; method=${method}` }],
    });
  }

  return async function send(work: InvitationWork): Promise<void> {
    const jobs: Array<[string, Promise<void>]> = [];
    for (const g of work.guests) jobs.push([`e-mail to ${g.email}`, mail(work, g.email, g.method)]);
    if (opts.chat) {
      const chat = opts.chat;
      for (const c of work.colleagues) {
        if (c.username === work.bookerUsername) continue;
        jobs.push([`chat notice to ${c.username}`, chat(work.bookerUsername, c.username, chatNoticeText(c.change, work.meeting.organizer.name, work.meeting.name, work.when, work.meeting.url))]);
      }
    }
    const results = await Promise.allSettled(jobs.map(([, p]) => p));
    results.forEach((r, i) => {
      if (r.status === 'rejected') log.warn({ err: r.reason, meetingId: work.meeting.id }, `meeting ${jobs[i]![0]} not sent`);
    });
  };
}
export type InvitationSender = ReturnType<typeof invitationSender>;
