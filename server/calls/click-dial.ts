import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { BaresipControl, type BaresipEvent } from '../services/baresip-control';
import { RING_TIME_MS } from '../services/kamailio';
import type { ServicesConfig } from '../services/layout';

/**
 * The API's side of the click-dial phone (server/services/clickdial.ts): rings a user's desk
 * phone and, once it is answered, transfers it (REFER) to the number, so that the desk phone
 * places the call itself. baresip's menu commands act on "the current call", so every command
 * sequence runs in one queue; a call is found by the URI it was dialled with, which carries a
 * token of its own.
 */
export type RingOutcome = 'calling' | 'no_device' | 'no_answer' | 'declined' | 'failed';

export interface ClickDialPhone {
  readonly ready: boolean;
  /** Rings `sip:<extension>@domain;device=desk`; once answered, transfers it to `number`. */
  ring(extension: string, number: string): Promise<RingOutcome>;
  close(): void;
}

const RECONNECT_MS = 2000;
/** Kamailio gives up on the desk phone after the ring time; this is only in case no answer ever comes. */
const GIVE_UP_MS = RING_TIME_MS + 10_000;

/** What a failed desk leg's reason (baresip's CALL_CLOSED text, with the SIP status) means to the user. */
export function outcomeOfClose(param: string | undefined): RingOutcome {
  const status = /\b([3-6]\d\d)\b/.exec(param ?? '')?.[1];
  if (status === '480' || status === '404') return 'no_device';
  if (status === '408' || /timeout/i.test(param ?? '')) return 'no_answer';
  if (status === '486' || status === '600' || status === '603' || status === '487') return 'declined';
  return 'failed';
}

/** `listcalls` prints one `[line N] … <peer uri>` per call. */
export function lineOf(listing: string, uri: string): number | null {
  for (const row of listing.split('\n')) {
    const m = /\[line (\d+)\]/.exec(row);
    if (m && row.trim().endsWith(uri)) return Number(m[1]);
  }
  return null;
}

export function startClickDialPhone(cfg: ServicesConfig, log: FastifyBaseLogger): ClickDialPhone {
  let control: BaresipControl | null = null;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T,>(work: (c: BaresipControl) => Promise<T>): Promise<T> => {
    const next = queue.then(() => {
      if (!control || control.isClosed) throw new Error('the click-dial phone is not connected');
      return work(control);
    });
    queue = next.catch(() => undefined);
    return next;
  };

  /** Makes `uri`'s call the current one, then runs `command` on it. */
  const onCall = (uri: string, command: string, params = '') =>
    serial(async (c) => {
      const line = lineOf(await c.command('listcalls'), uri);
      if (line === null) throw new Error(`no call to ${uri}`);
      await c.command('line', String(line));
      return c.command(command, params);
    });

  async function connect(): Promise<void> {
    timer = null;
    if (closed) return;
    const c = await BaresipControl.connect(cfg.ports.clickDialCtrl, { keepEvents: false });
    if (closed) return c?.close();
    if (!c) {
      timer = setTimeout(() => void connect(), RECONNECT_MS);
      return;
    }
    c.onClose(() => {
      if (control === c) control = null;
      if (!closed) timer = setTimeout(() => void connect(), RECONNECT_MS);
    });
    control = c;
    log.info('click-dial phone connected');
  }
  void connect().catch((err: unknown) => log.warn({ err }, 'click-dial: connecting failed'));

  async function ring(extension: string, number: string): Promise<RingOutcome> {
    const c = control;
    if (!c || c.isClosed) throw new Error('the click-dial phone is not connected');
    const uri = `sip:${extension}@${cfg.domain};device=desk;cd=${randomBytes(6).toString('hex')}`;
    const target = `sip:${number}@${cfg.domain}`;
    let callId: string | null = null;
    return new Promise<RingOutcome>((resolve) => {
      let settled = false;
      const finish = (o: RingOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(giveUp);
        offClose();
        if (o !== 'calling') off();
        resolve(o);
      };
      const giveUp = setTimeout(() => {
        void onCall(uri, 'hangup').catch(() => undefined);
        finish('no_answer');
      }, GIVE_UP_MS);
      // Without the control connection no outcome can come: say so now rather than at GIVE_UP_MS.
      const offClose = c.onClose(() => finish('failed'));
      const off = c.onEvent((e: BaresipEvent) => {
        if (e.class !== 'call' || (e.peeruri !== uri && (!callId || e.id !== callId))) return;
        callId ??= e.id ?? null;
        if (e.type === 'CALL_ESTABLISHED' && !settled) {
          onCall(uri, 'transfer', target).then(
            () => finish('calling'),
            (err: unknown) => {
              log.warn({ err, extension }, 'click-dial: the transfer was not sent');
              void onCall(uri, 'hangup').catch(() => undefined);
              finish('failed');
            },
          );
        } else if (e.type === 'TRANSFER_FAILED') {
          // The desk phone could not reach the number: its leg with us has no more use.
          log.info({ extension, reason: e.param }, 'click-dial: the desk phone did not reach the number');
          void onCall(uri, 'hangup').catch(() => undefined);
        } else if (e.type === 'CALL_CLOSED') {
          off();
          finish(outcomeOfClose(e.param));
        }
      });
      serial((cc) => cc.command('dial', uri)).catch((err: unknown) => {
        log.warn({ err, extension }, 'click-dial: the desk phone was not called');
        finish('failed');
      });
    });
  }

  return {
    get ready() {
      return control !== null && !control.isClosed;
    },
    ring,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      control?.close();
      control = null;
    },
  };
}
