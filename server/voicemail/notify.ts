import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { VoicemailNotice } from '../../src/wire/frame';
import { usNumber } from '../../src/wire/texts';
import type { Db } from '../db/types';
import type { CarrierAdapter } from '../texts/carrier';
import type { UcSettings } from '../../src/wire/ucSettings';
import { noticeRecipient } from './notify-repository';

/** What the owner asked to be told of a new message (their UC settings). */
export type Notices = Pick<UcSettings, 'sms_notification' | 'email_notification'>;

/** A message just filed in a user's mailbox. */
export interface NewVoicemail {
  userId: number;
  notices: Notices;
  voicemailId: number;
  callerNumber: string;
  callerName: string | null;
  durationMs: number;
  receivedAt: Date;
  wav: Buffer;
}

export interface VoicemailNotifierOptions {
  carrier: CarrierAdapter;
  /** `smtp://host:port` (or smtps://, with credentials in the URL); none: no e-mail is sent. */
  smtpUrl?: string | undefined;
  /** The sender of the e-mails. */
  mailFrom?: string;
  /**
   * Tells the owner's open clients (the specification's voicemail notification: vm_id, caller_name),
   * whatever their notice settings: the client shows it as a desktop notification, like a chat message.
   */
  push?(username: string, notice: VoicemailNotice): Promise<void>;
}

export type VoicemailNotifier = (vm: NewVoicemail) => Promise<void>;

const seconds = (ms: number) => Math.max(1, Math.round(ms / 1000));
const callerOf = (vm: NewVoicemail) => (vm.callerName ? `${vm.callerName} (${vm.callerNumber})` : vm.callerNumber);

/** The text and the e-mail's subject: who called and how long they spoke. */
export function noticeText(vm: NewVoicemail): string {
  return `New voicemail from ${callerOf(vm)}, ${seconds(vm.durationMs)} s.`;
}

/**
 * What a user asked to hear about a new voicemail (their UC settings): a text to their mobile number
 * through the organisation's carrier (`sms_notification`), an e-mail with the message attached
 * (`email_notification`, only where the deployment has an SMTP server). One failing never stops the other.
 */
export function voicemailNotifier(db: Db, log: FastifyBaseLogger, opts: VoicemailNotifierOptions): VoicemailNotifier {
  const mailer = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null;
  const mailFrom = opts.mailFrom ?? 'Acme UC voicemail <voicemail@uc.invalid>';

  async function text(vm: NewVoicemail): Promise<void> {
    const who = await noticeRecipient(db, vm.userId);
    const to = who?.mobile ? usNumber(who.mobile) : null;
    if (!who || !to || !who.senderNumber) {
      log.info({ userId: vm.userId }, 'voicemail text not sent: no mobile number, or the organisation has no messaging number');
      return;
    }
    await opts.carrier.send(db, { organizationId: who.organizationId, from: who.senderNumber, to: [to], body: noticeText(vm), media: [] });
  }

  async function mail(vm: NewVoicemail): Promise<void> {
    if (!mailer) return;
    const who = await noticeRecipient(db, vm.userId);
    if (!who?.email) return;
    await mailer.sendMail({
      from: mailFrom,
      to: who.name ? { name: who.name, address: who.email } : who.email,
      subject: noticeText(vm),
      text: `${noticeText(vm)}\nReceived ${vm.receivedAt.toISOString()}. The message is attached.`,
      attachments: [{ filename: `voicemail-${vm.voicemailId}.wav`, content: vm.wav, contentType: 'audio/wav' }],
    });
  }

  async function push(vm: NewVoicemail): Promise<void> {
    const who = await noticeRecipient(db, vm.userId);
    if (who && opts.push) await opts.push(who.username, { vm_id: String(vm.voicemailId), caller_name: vm.callerName });
  }

  return async (vm) => {
    const settings = vm.notices;
    const jobs: Array<[string, Promise<void>]> = [['client notice', push(vm)]];
    if (settings.sms_notification) jobs.push(['text', text(vm)]);
    if (settings.email_notification) jobs.push(['e-mail', mail(vm)]);
    const results = await Promise.allSettled(jobs.map(([, p]) => p));
    results.forEach((r, i) => {
      if (r.status === 'rejected') log.warn({ err: r.reason, userId: vm.userId, voicemailId: vm.voicemailId }, `voicemail ${jobs[i]![0]} not sent`);
    });
  };
}
