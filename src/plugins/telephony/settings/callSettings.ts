import type { Notifier } from '../../../kernel';
import { ApiError, type ApiClient } from '../../../kernel';
import {
  DestinationsResponse,
  DoNotDisturb,
  FORWARDING_REFRESH_MS,
  ForwardSetting,
  forwardProblem,
  ROUTABLE_NUMBER,
  type Destination,
  type ForwardProblem,
} from '../../../wire/calling';
import { phone } from '../state';
import { log } from '../log';

type Api = Pick<ApiClient, 'get' | 'put'>;

/**
 * Do-not-disturb and forward-always, as the server (and through it Kamailio) applies them. The
 * `phone.settings` store mirrors the server: read at start and every FORWARDING_REFRESH_MS (another
 * device may change them), written only with the server's answer to a save.
 */
export class CallSettings {
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly api: Api,
    private readonly notify: Notifier,
    /** Translates the screen-reader announcements of a saved change. */
    private readonly t: (key: string, values?: Record<string, unknown>) => string,
  ) {}

  start(): void {
    void this.refresh();
    this.timer ??= setInterval(() => void this.refresh(), FORWARDING_REFRESH_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async refresh(): Promise<void> {
    const [dnd, always] = await Promise.allSettled([
      this.api.get('/v1/broad/donotdisturb', undefined, DoNotDisturb),
      this.api.get('/v1/broad/forwards/always', undefined, ForwardSetting),
    ]);
    // A save in flight wins over a read that started before it.
    if (phone.settings.saving) return;
    if (dnd.status === 'fulfilled') phone.settings.dnd = dnd.value.do_not_disturb;
    else log.error('reading do-not-disturb failed', dnd.reason);
    if (always.status === 'fulfilled') phone.settings.forwardAlways = always.value;
    else log.error('reading call forwarding failed', always.reason);
  }

  /** Colleagues calls may be forwarded to. */
  destinations(): Promise<Destination[]> {
    return this.api.get('/v1/broad/destinations', undefined, DestinationsResponse).then((r) => r.items);
  }

  async setDnd(on: boolean): Promise<boolean> {
    return this.save(async () => {
      const saved = await this.api.put('/v1/broad/donotdisturb', { do_not_disturb: on }, DoNotDisturb);
      phone.settings.dnd = saved.do_not_disturb;
      this.notify.announce(this.notifyText(saved.do_not_disturb ? 'dndOn' : 'dndOff'), 'polite');
    });
  }

  /**
   * Forward-always on (to `destination`, or the saved one) or off (the destination is kept for next
   * time). Returns the rule the setting breaks, without saving, or null once saved.
   */
  async setForwardAlways(enabled: boolean, destination: Destination | null = phone.settings.forwardAlways?.destination ?? null): Promise<ForwardProblem | 'failed' | null> {
    const setting: ForwardSetting = { enabled, destination };
    const problem = forwardProblem(setting);
    if (problem) return problem;
    const ok = await this.save(async () => {
      const saved = await this.api.put('/v1/broad/forwards/always', setting, ForwardSetting);
      phone.settings.forwardAlways = saved;
      const to = saved.destination?.destination_name || saved.destination?.destination_parameter || '';
      this.notify.announce(this.notifyText(saved.enabled ? 'forwardOn' : 'forwardOff', { to }), 'polite');
    });
    return ok ? null : 'failed';
  }

  private notifyText(key: string, values?: Record<string, unknown>): string {
    return this.t(`telephony:settings.announce.${key}`, values);
  }

  private async save(work: () => Promise<void>): Promise<boolean> {
    phone.settings.saving = true;
    try {
      await work();
      return true;
    } catch (err) {
      this.notify.toast(saveFailure(err));
      return false;
    } finally {
      phone.settings.saving = false;
    }
  }
}

/**
 * Why a calling save failed, as a toast: a 403 or a server message containing 'authorized' is
 * the no-permission notice; anything else is 'Save Failed!' with the server's message.
 */
export function saveFailure(err: unknown): Parameters<Notifier['toast']>[0] {
  const message = err instanceof Error ? err.message : '';
  if ((err instanceof ApiError && err.status === 403) || /authorized/i.test(message)) {
    return { tone: 'error', titleKey: 'telephony:settings.notAuthorized', messageKey: 'telephony:settings.contactAdmin', timeoutMs: 10_000 };
  }
  return message && err instanceof ApiError
    ? { tone: 'error', titleKey: 'telephony:settings.saveFailed', message }
    : { tone: 'error', titleKey: 'telephony:settings.saveFailed', messageKey: 'telephony:settings.tryAgain' };
}

/**
 * What the user typed or picked as a forwarding destination: a colleague (from the destinations
 * list) or a number. Returns null for text that is not a routable number.
 */
export function destinationFrom(text: string, colleagues: readonly Destination[]): Destination | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  const lower = trimmed.toLowerCase();
  const colleague = colleagues.find((d) => d.destination_parameter === trimmed || (d.destination_name ?? '').toLowerCase() === lower);
  if (colleague) return colleague;
  const number = trimmed.replace(/[\s().-]/g, '');
  if (!ROUTABLE_NUMBER.test(number)) return null;
  return { destination_type: 'phone', destination_id: null, destination_name: null, destination_parameter: number };
}
