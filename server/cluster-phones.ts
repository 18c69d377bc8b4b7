import cluster from 'node:cluster';

/**
 * The service phones (the voicemail box, the click-dial phone) each take baresip's one control
 * connection, so of a cluster's API processes the first drives them; the others reach them through
 * the cluster's IPC channel (relayed by the primary, server/cluster.ts): Kamailio's routing question
 * or a click-dial may land on any process and get the same answer.
 */
export type PhoneName = 'voicemail' | 'clickDial';

export type PhoneMessage =
  | { uc: 'phone-call'; id: number; from: number; phone: PhoneName; method: string; args: unknown[] }
  | { uc: 'phone-result'; id: number; to: number; ok: boolean; value?: unknown; error?: string }
  | { uc: 'phone-ready'; phone: PhoneName; ready: boolean };

export const isPhoneMessage = (m: unknown): m is PhoneMessage =>
  typeof m === 'object' && m !== null && typeof (m as { uc?: unknown }).uc === 'string' && (m as { uc: string }).uc.startsWith('phone-');

/** A process's side of the IPC channel (a fake in unit tests). */
export interface PhoneChannel {
  readonly index: number;
  send(message: PhoneMessage): void;
  onMessage(listener: (message: unknown) => void): () => void;
}

/** This process's channel when it is one of a cluster's API processes, else null. */
export function clusterChannel(): PhoneChannel | null {
  if (!cluster.isWorker || !process.send) return null;
  return {
    index: Number(process.env.UC_API_PROCESS_INDEX || 1),
    send: (m) => void process.send!(m),
    onMessage(listener) {
      process.on('message', listener);
      return () => void process.off('message', listener);
    },
  };
}

/** How often the first process looks whether its phone's readiness changed (it tells only changes). */
const READY_CHECK_MS = 100;
/** Asked by a process as it starts (the changes it missed are not told again). */
const READY = 'ready?';
/** Longer than any phone operation (a click-dial waits at most the ring time and 10 s). */
const CALL_TIMEOUT_MS = 120_000;

/** The first process: answers the others' calls to `phone`, and tells them when it becomes ready or stops being. */
export function servePhone(channel: PhoneChannel, phone: PhoneName, target: { readonly ready: boolean } & object): () => void {
  const off = channel.onMessage((m) => {
    if (!isPhoneMessage(m) || m.uc !== 'phone-call' || m.phone !== phone) return;
    const method = (target as Record<string, unknown>)[m.method];
    const answer = (ok: boolean, value?: unknown, error?: string) => channel.send({ uc: 'phone-result', id: m.id, to: m.from, ok, value, error });
    if (m.method === READY) return answer(true, target.ready);
    if (typeof method !== 'function' || m.method === 'close') return answer(false, undefined, `no method ${m.method}`);
    Promise.resolve()
      .then(() => (method as (...a: unknown[]) => unknown).apply(target, m.args))
      .then(
        (value) => answer(true, value),
        (err: unknown) => answer(false, undefined, err instanceof Error ? err.message : String(err)),
      );
  });
  let told: boolean | null = null;
  const tell = () => {
    if (target.ready === told) return;
    told = target.ready;
    channel.send({ uc: 'phone-ready', phone, ready: told });
  };
  tell();
  const timer = setInterval(tell, READY_CHECK_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    off();
  };
}

/** Another process: an object whose methods run on the first process's phone; ready as it last said. */
export function remotePhone<T extends { readonly ready: boolean; close(): void }>(channel: PhoneChannel, phone: PhoneName, methods: ReadonlyArray<Exclude<keyof T, 'ready' | 'close'>>): T {
  let ready = false;
  let next = 0;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  const off = channel.onMessage((m) => {
    if (!isPhoneMessage(m)) return;
    if (m.uc === 'phone-ready' && m.phone === phone) ready = m.ready;
    if (m.uc === 'phone-result' && m.to === channel.index) {
      const w = waiting.get(m.id);
      if (!w) return;
      waiting.delete(m.id);
      clearTimeout(w.timer);
      if (m.ok) w.resolve(m.value);
      else w.reject(new Error(m.error ?? 'the first API process could not do it'));
    }
  });
  const call = (method: string, args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`the ${phone} phone did not answer`));
      }, CALL_TIMEOUT_MS);
      timer.unref();
      waiting.set(id, { resolve, reject, timer });
      channel.send({ uc: 'phone-call', id, from: channel.index, phone, method, args });
    });
  const remote: Record<string, unknown> = {
    close() {
      off();
      for (const w of waiting.values()) {
        clearTimeout(w.timer);
        w.reject(new Error('closed'));
      }
      waiting.clear();
    },
  };
  Object.defineProperty(remote, 'ready', { get: () => ready });
  call(READY, []).then(
    (value) => (ready = value === true),
    () => undefined,
  );
  for (const m of methods) remote[m as string] = (...args: unknown[]) => call(m as string, args);
  return remote as unknown as T;
}
