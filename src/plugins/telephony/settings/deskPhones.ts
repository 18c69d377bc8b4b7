import { subscribe } from 'valtio';
import type { ApiClient } from '../../../kernel';
import { DevicesCheckResponse } from '../../../wire/calling';
import { phone } from '../state';
import { log } from '../log';

/**
 * Whether the user has a desk phone registered (`GET /v1/devices/check`, which asks the SIP
 * registrar), kept in `phone.deskPhone` for "Move call to desk phone". Read at start and again
 * whenever a call connects: that is when the answer matters, and a phone may have been plugged in
 * or switched off since.
 */
export class DeskPhones {
  private unsubscribe: (() => void) | null = null;
  private active = new Set<string>();

  constructor(private readonly api: Pick<ApiClient, 'get'>) {}

  start(): void {
    void this.refresh();
    this.unsubscribe ??= subscribe(phone.calls, () => this.onCalls());
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.active.clear();
  }

  async refresh(): Promise<void> {
    try {
      phone.deskPhone = (await this.api.get('/v1/devices/check', undefined, DevicesCheckResponse)).desk_phone;
    } catch (err) {
      // Unknown stays unknown; a known answer is kept until a new one arrives.
      log.error('reading registered phones failed', err);
    }
  }

  private onCalls(): void {
    const now = new Set(Object.values(phone.calls).filter((c) => c.state === 'active').map((c) => c.id));
    const connected = [...now].some((id) => !this.active.has(id));
    this.active = now;
    if (connected) void this.refresh();
  }
}
