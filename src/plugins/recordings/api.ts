import { Api, Notifications, type ServiceLookup } from '../../kernel';
import { TelephonyApi } from '../../contracts';
import { CallRecordingSettings } from '../../wire/recording';
import { CallRecordingsPage, FailoverResponse } from '../../wire/callRecordings';
import { defaultFilter, fromWire, playerDuration, REFRESH_MS, toQuery, type RecordingFilter } from './model';
import { recState, type Recording } from './state';
import { log } from './log';

const tz = () => -new Date().getTimezoneOffset();
let filter: RecordingFilter = defaultFilter(new Date());
let generation = 0;
let translate: (key: string) => string = (k) => k;
export const setTranslator = (t: typeof translate) => (translate = t);

export const currentFilter = () => filter;

/** Whether the user may see recordings (ecr_can_view_own_recordings, and recording not off). */
export async function loadSettings(s: ServiceLookup): Promise<void> {
  try {
    const st = await s.get(Api).get('/v1/call-recording-settings', undefined, CallRecordingSettings);
    recState.visible = st.ecr_can_view_own_recordings && st.ecr_call_recording_status !== 'off';
  } catch (err) {
    log.error('settings failed', err);
  }
}

/** The first page for the filter (or the current one again); fetch failures are logged only. */
export async function load(s: ServiceLookup, next: RecordingFilter = filter): Promise<void> {
  const mine = ++generation;
  filter = next;
  try {
    const page = await s.get(Api).get('/v1/call-recordings', toQuery(next, 0, tz()), CallRecordingsPage);
    if (mine !== generation) return;
    const items = page.items.map(fromWire);
    recState.items = items;
    recState.total = page.total;
    recState.loadFailed = false;
    // Specification: the player resets to 0 when the list updates.
    resetPosition();
    if (recState.player.id && !items.some((r) => r.id === recState.player.id)) resetPlayer();
  } catch (err) {
    if (mine === generation) recState.loadFailed = recState.items === null;
    log.error('list failed', err);
  }
}

export async function loadMore(s: ServiceLookup): Promise<void> {
  const have = recState.items?.length ?? 0;
  if (!recState.items || have >= recState.total) return;
  const mine = generation;
  try {
    const page = await s.get(Api).get('/v1/call-recordings', toQuery(filter, have, tz()), CallRecordingsPage);
    if (mine !== generation || recState.items.length !== have) return;
    recState.items = [...recState.items, ...page.items.map(fromWire)];
    recState.total = page.total;
  } catch (err) {
    log.error('next page failed', err);
  }
}

/** Every 60 s, only while nothing plays. */
export function startRefreshing(s: ServiceLookup): () => void {
  const timer = setInterval(() => {
    if (recState.player.state !== 'playing' && recState.player.state !== 'loading') void load(s);
  }, REFRESH_MS);
  return () => {
    clearInterval(timer);
    resetPlayer();
  };
}

// ---- player ------------------------------------------------------------------------------------

let el: HTMLAudioElement | null = null;
let url: string | null = null;
let loadSeq = 0;
let announce: (key: string) => void = () => undefined;

function listed(): number {
  return recState.items?.find((r) => r.id === recState.player.id)?.durationSeconds ?? 0;
}

function audio(): HTMLAudioElement {
  if (el) return el;
  const a = new Audio();
  a.addEventListener('timeupdate', () => (recState.player.position = a.currentTime));
  a.addEventListener('durationchange', () => (recState.player.duration = playerDuration(a.duration, listed())));
  a.addEventListener('play', () => setState('playing'));
  a.addEventListener('pause', () => !a.ended && recState.player.state === 'playing' && setState('paused'));
  a.addEventListener('ended', () => {
    a.currentTime = 0;
    recState.player.position = 0;
    setState('not playing');
  });
  a.addEventListener('error', () => url && setState('failed'));
  el = a;
  return a;
}

function setState(state: typeof recState.player.state): void {
  recState.player.state = state;
  announce(`recordings:player.announce.${state === 'not playing' ? 'ended' : state}`);
}

function resetPosition(): void {
  if (el && recState.player.state !== 'playing') {
    el.currentTime = 0;
    recState.player.position = 0;
  }
}

export function resetPlayer(): void {
  loadSeq++;
  if (el) {
    el.pause();
    el.removeAttribute('src');
    el.load();
  }
  if (url) URL.revokeObjectURL(url);
  url = null;
  Object.assign(recState.player, { id: null, state: 'not playing', position: 0, duration: 0 });
}

/** Plays, pauses or resumes; a failover block or a failed fetch leaves the player failed. */
export async function playPause(s: ServiceLookup, id: string): Promise<void> {
  announce = (key) => s.get(Notifications).announce(translate(key));
  const p = recState.player;
  if (p.id === id && el && (p.state === 'playing' || p.state === 'paused' || (p.state === 'not playing' && url))) {
    if (el.paused) void el.play().catch((err: unknown) => log.warn('play refused', err));
    else el.pause();
    return;
  }
  const rec = recState.items?.find((r) => r.id === id);
  if (!rec) return;
  resetPlayer();
  const mine = loadSeq;
  Object.assign(recState.player, { id, position: 0, duration: rec.durationSeconds });
  setState('loading');
  const api = s.get(Api);
  try {
    const { fail_over } = await api.get('/v1/organizations/failover', undefined, FailoverResponse);
    if (fail_over) throw new Error('failover');
    const blob = await (await api.raw('GET', rec.mediaUrl)).blob();
    if (mine !== loadSeq) return;
    const a = audio();
    url = URL.createObjectURL(blob);
    a.src = url;
    // Not awaited into the catch below: a pause before playback really starts rejects play() with
    // an AbortError, which is the user's pause, not a failure; a broken file fires `error`.
    void a.play().catch((err: unknown) => log.warn('play refused', err));
  } catch (err) {
    if (mine !== loadSeq) return;
    setState('failed');
    log.error('audio failed', err);
  }
}

export function seek(seconds: number): void {
  if (!el || !url) return;
  el.currentTime = Math.max(0, Math.min(seconds, recState.player.duration || seconds));
  recState.player.position = el.currentTime;
}

export async function download(s: ServiceLookup, rec: Recording): Promise<void> {
  try {
    const blob = await (await s.get(Api).raw('GET', rec.mediaUrl)).blob();
    const href = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = href;
    a.download = `recording-${rec.timestamp.slice(0, 16).replace(/[-:]/g, '').replace('T', '-')}-${rec.phoneNumber.replace(/\D/g, '') || 'unknown'}.wav`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
  } catch (err) {
    s.get(Notifications).toast({ tone: 'error', titleKey: 'recordings:errors.download' });
    log.error('download failed', err);
  }
}

export async function callBack(s: ServiceLookup, rec: Recording): Promise<void> {
  try {
    await s.maybe(TelephonyApi)?.call(rec.phoneNumber, { displayName: rec.cnam ?? undefined });
  } catch (err) {
    log.error('call back failed', err);
  }
}
