import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Dialog, Form, Heading, Input, Label, Modal, ModalOverlay, TextField, ToggleButton, Toolbar } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { PresenceApi } from '../../../contracts';
import { Notifications, useKernel } from '../../../kernel';
import type { MeetingMedia, WaitingRoom } from '../../../wire/meetings';
import { admit, endForAll, moderateParticipant, mutePhone, readWaiting, removeParticipant, removePhone, serverMessage } from '../api';
import { log } from '../log';
import { setActiveSession } from '../media/active';
import { toggleCamera, toggleHand, toggleMute, togglePanel, toggleShare } from '../media/controls';
import { MeetingSession, type EndReason, type Peer, type StartControls, type Who } from '../media/session';
import { activeSpeaker, CHAT_MAX, type FeedKind } from '../media/signals';
import { phonesOfTiles } from './phoneTiles';
import { usePhones } from './usePhones';

/** The fourth phone tile is the one later phones share (the server's audio bridge has four phone groups). */
const SHARED_PHONE_TILE = 4;

interface Props {
  meetingId: number;
  media: MeetingMedia;
  who: Who;
  start: StartControls;
  /** In the room with media flowing out. */
  onJoined(): void;
  onEnded(reason: EndReason): void;
}

/**
 * The meeting itself: everyone's tiles (the active speaker large), the controls, and the
 * participants and chat panels. Every control is also a command with its hotkey (Ctrl+D, Ctrl+E…).
 */
export function MeetingRoom({ meetingId, media, who, start, onJoined, onEnded }: Props) {
  const { t } = useTranslation('meetings');
  const kernel = useKernel();
  const [session] = useState(
    () =>
      new MeetingSession(media, who, start, {
        announce: (kind, name, text) => kernel.get(Notifications).announce(kind === 'chat' ? t('room.announce.chat', { name, text }) : t(`room.announce.${kind}`, { name }), kind === 'mutedByHost' ? 'assertive' : 'polite'),
      }),
  );
  const snap = useSnapshot(session.state);
  const waiting = useWaitingRoom(meetingId, snap.isHost && snap.phase === 'in');
  const ended = useRef(onEnded);
  ended.current = onEnded;

  useEffect(() => {
    setActiveSession(session);
    void session.start();
    return () => {
      session.leave();
      setActiveSession(null);
    };
  }, [session]);

  useEffect(() => {
    if (snap.phase === 'ended' && snap.ended) ended.current(snap.ended);
  }, [snap.phase, snap.ended]);

  // In the meeting's media, colleagues see In Meeting; leaving (or closing the window) brings back the user's state.
  const inMedia = snap.phase === 'in';
  const joined = useRef(onJoined);
  joined.current = onJoined;
  useEffect(() => {
    if (!inMedia) return;
    joined.current();
    const presence = kernel.maybe(PresenceApi);
    presence?.setInMeeting(true);
    return () => presence?.setInMeeting(false);
  }, [inMedia, kernel]);

  const peers = Object.values(snap.peers) as Peer[];
  const speaker = activeSpeaker(peers);
  // Phones dialled in are people too (a tile each, the phone's own voice from the audio bridge);
  // they have no camera, and the bridge knows whether the host muted them and acts on them (usePhones).
  const people = peers.filter((p) => p.kind !== 'screen');
  const { phones, refresh: refreshPhones } = usePhones(meetingId, people.some((p) => p.kind === 'phone'));
  const phoneOf = phonesOfTiles(people, phones);
  // A phone's speaking is the API's (Janus gives no level for phones): onto its tile's person, so the
  // tile, the active speaker and "who is speaking" treat it as anyone's.
  // A tile whose phone the list does not have (yet, or any more) is not speaking.
  const phoneTalking = people
    .filter((p) => p.kind === 'phone')
    .map((p) => `${p.feed}:${phoneOf.get(p.feed)?.talking ? 1 : 0}`)
    .join(',');
  useEffect(() => {
    for (const pair of phoneTalking ? phoneTalking.split(',') : []) {
      const [feed, talking] = pair.split(':');
      session.setTalking(Number(feed), talking === '1');
    }
  }, [phoneTalking, session]);
  // Past the bridge's four phone groups (PHONE_GROUPS on the server) a phone shares the fourth's
  // tile: it is still a participant of its own. Only then, so that a phone the list (read every few
  // seconds) has before its tile appears, or after it went, is not counted twice meanwhile.
  const paired = new Set(phoneOf.values());
  const tileless = people.filter((p) => p.kind === 'phone').length >= SHARED_PHONE_TILE ? phones.filter((ph) => !paired.has(ph)) : [];
  const count = people.length + 1 + tileless.length;
  const nameOf = (p: { kind: FeedKind; name: string }) => (p.kind === 'screen' ? t('room.screenOf', { name: p.name }) : p.kind === 'phone' ? t('room.phoneOf', { name: p.name }) : p.name);
  /** A phone held in the waiting room reads as its tile will ("Phone <number>"). */
  const waiterName = (w: WaitingRoom['waiting'][number]) => (w.is_phone ? t('room.phoneOf', { name: w.name }) : w.name);
  const [confirmEnd, setConfirmEnd] = useState(false);
  /** A host's action on the server; a refusal is said in a toast, the meeting goes on. */
  const hostAction = (work: () => Promise<unknown>) =>
    void work().catch((err: unknown) => {
      log.warn('host action refused', err);
      kernel.get(Notifications).toast({ titleKey: 'meetings:room.hostFailed', ...(serverMessage(err) ? { message: serverMessage(err) } : {}), tone: 'error' });
    });

  /** A phone in the participants list: its state as the bridge has it, and the host's buttons. */
  const phoneItem = (ph: (typeof phones)[number], talking: boolean) => {
    const name = t('room.phoneOf', { name: ph.number });
    return (
      <li key={`phone-${ph.id}`}>
        {describe(t, name, { muted: ph.muted, camera: false, hand: false, talking })}
        {snap.isHost && (
          <span className="mt-people-actions">
            <Button className="btn small" onPress={() => hostAction(() => mutePhone(kernel, meetingId, ph.id, !ph.muted).finally(refreshPhones))}>
              {ph.muted ? t('room.unmuteOther', { name }) : t('room.muteOther', { name })}
            </Button>
            <Button className="btn small" onPress={() => hostAction(() => removePhone(kernel, meetingId, ph.id).finally(refreshPhones))}>
              {t('room.remove', { name })}
            </Button>
          </span>
        )}
      </li>
    );
  };

  return (
    <section className="mt-room" aria-label={t('room.label')}>
      <p role="status" className="mt-room-status">
        {snap.phase === 'connecting' ? t('room.connecting') : t('room.inCall', { n: count })}
        {snap.self.forced && ` ${t('room.forcedMuted')}`}
      </p>
      {waiting.length > 0 && (
        <section className="mt-waiting-room" aria-labelledby="mt-waiting-h">
          <h3 id="mt-waiting-h">{t('room.waitingList', { n: waiting.length })}</h3>
          <ul>
            {waiting.map((w) => (
              <li key={w.occupant}>
                {waiterName(w)}{' '}
                <Button className="btn small primary" onPress={() => hostAction(() => admit(kernel, meetingId, w.occupant, true))}>
                  {t('room.admit', { name: waiterName(w) })}
                </Button>{' '}
                <Button className="btn small" onPress={() => hostAction(() => admit(kernel, meetingId, w.occupant, false))}>
                  {t('room.deny', { name: waiterName(w) })}
                </Button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <div className="mt-room-body">
        <ul className="mt-tiles" aria-label={t('room.tiles')}>
          <Tile name={t('lobby.you', { name: who.name })} stream={snap.local} tracks={snap.localTracks} self muted={snap.self.muted} camera={snap.self.camera} hand={snap.self.hand} talking={snap.self.talking} large={false} kind="camera" />
          {peers.map((p) => (
            <Tile key={p.feed} speaker={snap.devices.speaker} name={nameOf(p)} stream={p.stream} tracks={p.tracks} self={false} muted={phoneOf.get(p.feed)?.muted ?? p.muted} camera={p.camera} hand={p.hand} talking={p.talking} large={p.feed === speaker} kind={p.kind} />
          ))}
        </ul>
        {snap.panel === 'participants' && (
          <aside className="mt-panel" aria-labelledby="mt-people-h">
            <h3 id="mt-people-h">{t('room.participants', { n: count })}</h3>
            <ul className="mt-people">
              <li>{describe(t, t('lobby.you', { name: who.name }), snap.self)}</li>
              {people.map((p) => {
                const ph = phoneOf.get(p.feed);
                if (ph) return phoneItem(ph, p.talking);
                return (
                  <li key={p.feed}>
                    {describe(t, nameOf(p), p)}
                    {snap.isHost && p.kind === 'camera' && (
                      <span className="mt-people-actions">
                        {p.audioMid && (
                          <Button className="btn small" onPress={() => hostAction(() => moderateParticipant(kernel, meetingId, p.feed, p.audioMid!, !p.forced))}>
                            {p.forced ? t('room.allowUnmute', { name: p.name }) : t('room.muteOther', { name: p.name })}
                          </Button>
                        )}
                        <Button className="btn small" onPress={() => hostAction(() => removeParticipant(kernel, meetingId, p.feed))}>
                          {t('room.remove', { name: p.name })}
                        </Button>
                      </span>
                    )}
                  </li>
                );
              })}
              {tileless.map((ph) => phoneItem(ph, false))}
            </ul>
          </aside>
        )}
        {snap.panel === 'chat' && <ChatPanel session={session} />}
        {snap.panel === 'devices' && <DevicesPanel session={session} />}
      </div>
      <Toolbar className="mt-controls" aria-label={t('room.controls')}>
        <ToggleButton className="btn" isSelected={snap.self.muted} onChange={() => toggleMute()} aria-keyshortcuts='Control+D' isDisabled={snap.phase !== 'in' || snap.self.forced}>
          {t('room.mute')}
        </ToggleButton>
        <ToggleButton className="btn" isSelected={snap.self.camera} onChange={() => void toggleCamera(kernel)} aria-keyshortcuts='Control+E' isDisabled={snap.phase !== 'in'}>
          {t('room.camera')}
        </ToggleButton>
        <ToggleButton className="btn" isSelected={snap.self.sharing} onChange={() => void toggleShare(kernel)} aria-keyshortcuts='Control+Alt+S' isDisabled={snap.phase !== 'in'}>
          {t('room.share')}
        </ToggleButton>
        <ToggleButton className="btn" isSelected={snap.self.hand} onChange={() => toggleHand()} aria-keyshortcuts='Control+Alt+H' isDisabled={snap.phase !== 'in'}>
          {t('room.hand')}
        </ToggleButton>
        <ToggleButton className="btn" isSelected={snap.panel === 'participants'} onChange={() => togglePanel('participants')} aria-keyshortcuts='Control+Alt+P'>
          {t('room.participantsButton')}
        </ToggleButton>
        <ToggleButton className="btn" isSelected={snap.panel === 'chat'} onChange={() => togglePanel('chat')} aria-keyshortcuts='Control+Alt+C'>
          {t('room.chat')}
        </ToggleButton>
        <ToggleButton className="btn" isSelected={snap.panel === 'devices'} onChange={() => togglePanel('devices')}>
          {t('room.devices')}
        </ToggleButton>
        <Button className="btn danger" onPress={() => session.leave()}>
          {t('room.leave')}
        </Button>
        {snap.isHost && (
          <Button className="btn danger" onPress={() => setConfirmEnd(true)}>
            {t('room.endForAll')}
          </Button>
        )}
      </Toolbar>
      <ModalOverlay className="modal-overlay" isOpen={confirmEnd} onOpenChange={setConfirmEnd} isDismissable>
        <Modal className="modal">
          <Dialog role="alertdialog" className="dialog">
            {({ close }) => (
              <>
                <Heading slot="title">{t('room.endConfirmTitle')}</Heading>
                <p>{t('room.endConfirmText')}</p>
                <div className="dialog-actions">
                  <Button className="btn" onPress={close} autoFocus>
                    {t('room.cancel')}
                  </Button>
                  <Button
                    className="btn danger"
                    onPress={() => {
                      close();
                      hostAction(() => endForAll(kernel, meetingId));
                    }}
                  >
                    {t('room.endForAll')}
                  </Button>
                </div>
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </section>
  );
}

type T = ReturnType<typeof useTranslation<'meetings'>>['t'];

const WAITING_REFRESH_MS = 3000;

/** The host's waiting room, read every few seconds; a newcomer in it is announced. */
function useWaitingRoom(meetingId: number, active: boolean): WaitingRoom['waiting'] {
  const { t } = useTranslation('meetings');
  const kernel = useKernel();
  const [list, setList] = useState<WaitingRoom['waiting']>([]);
  useEffect(() => {
    if (!active) return setList([]);
    let known = new Set<number>();
    let stopped = false;
    const read = () =>
      readWaiting(kernel, meetingId).then(
        ({ waiting }) => {
          if (stopped) return;
          for (const w of waiting) if (!known.has(w.occupant)) kernel.get(Notifications).announce(t('room.announce.waiting', { name: w.is_phone ? t('room.phoneOf', { name: w.name }) : w.name }), 'assertive');
          known = new Set(waiting.map((w) => w.occupant));
          setList(waiting);
        },
        (err: unknown) => log.warn('waiting room not read', err),
      );
    void read();
    const timer = setInterval(() => void read(), WAITING_REFRESH_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [active, kernel, meetingId, t]);
  return list;
}

/** A person's name and, in words, what their tile shows by icons. */
function describe(t: T, name: string, s: { muted: boolean; camera: boolean; hand: boolean; talking: boolean }): string {
  const parts = [name];
  if (s.talking) parts.push(t('room.state.talking'));
  if (s.muted) parts.push(t('room.state.muted'));
  if (!s.camera) parts.push(t('room.state.cameraOff'));
  if (s.hand) parts.push(t('room.state.hand'));
  return parts.join(', ');
}

interface TileProps {
  name: string;
  /** The audio output chosen in the meeting (remote tiles only). */
  speaker?: string | null;
  stream: MediaStream | null;
  tracks: number;
  self: boolean;
  muted: boolean;
  camera: boolean;
  hand: boolean;
  talking: boolean;
  large: boolean;
  kind: FeedKind;
}

function Tile({ name, speaker, stream, tracks, self, muted, camera, hand, talking, large, kind }: TileProps) {
  const { t } = useTranslation('meetings');
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const el = video.current;
    if (el && el.srcObject !== stream) el.srcObject = stream;
    // A track added to the same stream needs play() again in some browsers.
    if (el && stream) void el.play().catch(() => undefined);
  }, [stream, tracks]);
  useEffect(() => {
    const el = video.current as (HTMLVideoElement & { setSinkId?: (id: string) => Promise<void> }) | null;
    if (!el || self || !el.setSinkId || speaker === undefined) return;
    void el.setSinkId(speaker ?? '').catch((err: unknown) => log.warn('speaker not chosen', err));
  }, [speaker, self]);
  const showVideo = kind === 'screen' || camera;
  const initials = useMemo(
    () =>
      name
        .split(/\s+/)
        .slice(0, 2)
        .map((w) => w[0] ?? '')
        .join('')
        .toUpperCase(),
    [name],
  );
  const label = kind === 'screen' ? name : describe(t, name, { muted, camera, hand, talking });
  return (
    <li className="mt-tile" data-large={large || undefined} data-talking={talking || undefined} data-self={self || undefined} aria-label={label}>
      {/* Own audio is never played back (echo); others' audio plays from their tile. */}
      <video ref={video} autoPlay playsInline muted={self} data-feed-kind={kind} hidden={!showVideo} aria-hidden="true" />
      {!showVideo && (
        <span className="mt-tile-avatar" aria-hidden="true">
          {initials}
        </span>
      )}
      <span className="mt-tile-name" aria-hidden="true">
        {name}
        {muted && kind === 'camera' && <span className="mt-tile-flag"> · {t('room.state.muted')}</span>}
        {hand && <span className="mt-tile-flag"> · ✋</span>}
      </span>
    </li>
  );
}

/** The browser's own entries beside the real devices: "Browser default" stands for them. */
const VIRTUAL_DEVICES = new Set(['default', 'communications']);

function useDevices(): MediaDeviceInfo[] {
  const [list, setList] = useState<MediaDeviceInfo[]>([]);
  useEffect(() => {
    const media = navigator.mediaDevices;
    if (!media?.enumerateDevices) return;
    let live = true;
    const load = () =>
      void media.enumerateDevices().then(
        (all) => live && setList(all.filter((d) => !VIRTUAL_DEVICES.has(d.deviceId))),
        (err: unknown) => log.warn('devices not listed', err),
      );
    load();
    media.addEventListener('devicechange', load);
    return () => {
      live = false;
      media.removeEventListener('devicechange', load);
    };
  }, []);
  return list;
}

/** Microphone, camera and speaker for this meeting, switched without leaving it. */
function DevicesPanel({ session }: { session: MeetingSession }) {
  const { t } = useTranslation('meetings');
  const kernel = useKernel();
  const snap = useSnapshot(session.state);
  const all = useDevices();
  const canRoute = 'setSinkId' in HTMLMediaElement.prototype;
  const pick = (work: () => Promise<void> | void) =>
    void Promise.resolve()
      .then(work)
      .catch((err: unknown) => {
        log.warn('device not switched', err);
        kernel.get(Notifications).toast({ titleKey: 'meetings:room.deviceFailed', tone: 'error' });
      });
  const select = (kind: MediaDeviceKind, label: string, value: string | null, onChange: (id: string | null) => void) => {
    const devices = all.filter((d) => d.kind === kind);
    return (
      <div className="field">
        <label htmlFor={`mt-dev-${kind}`}>{label}</label>
        <select id={`mt-dev-${kind}`} className="input" value={value ?? ''} onChange={(e) => onChange(e.target.value || null)}>
          <option value="">{t('room.defaultDevice')}</option>
          {devices.map((d, i) => (
            <option key={d.deviceId} value={d.deviceId}>
              {d.label || t('room.unnamedDevice', { n: i + 1 })}
            </option>
          ))}
        </select>
      </div>
    );
  };
  return (
    <aside className="mt-panel" aria-labelledby="mt-devices-h">
      <h3 id="mt-devices-h">{t('room.devices')}</h3>
      {select('audioinput', t('room.microphone'), snap.devices.microphone, (id) => pick(() => session.setMicrophone(id)))}
      {select('videoinput', t('room.cameraDevice'), snap.devices.camera, (id) => pick(() => session.setCameraDevice(id)))}
      {canRoute && select('audiooutput', t('room.speaker'), snap.devices.speaker, (id) => pick(() => session.setSpeaker(id)))}
    </aside>
  );
}

function ChatPanel({ session }: { session: MeetingSession }) {
  const { t } = useTranslation('meetings');
  const snap = useSnapshot(session.state);
  const [text, setText] = useState('');
  const [failed, setFailed] = useState(false);
  const fmt = useMemo(() => new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }), []);
  return (
    <aside className="mt-panel" aria-labelledby="mt-chat-h">
      <h3 id="mt-chat-h">{t('room.chat')}</h3>
      <div role="log" aria-labelledby="mt-chat-h">
      <ol className="mt-chat">
        {snap.chat.map((l) => (
          <li key={l.id}>
            <strong>{l.mine ? t('room.me') : l.from}</strong> <time>{fmt.format(l.at)}</time>
            <p>{l.text}</p>
          </li>
        ))}
      </ol>
      </div>
      <Form
        className="mt-chat-form"
        onSubmit={(e) => {
          e.preventDefault();
          // What was typed stays until it is sent.
          void session.sendChat(text).then((ok) => {
            setFailed(!ok && text.trim() !== '');
            if (ok) setText('');
          });
        }}
      >
        <TextField className="field" value={text} onChange={setText} maxLength={CHAT_MAX} autoFocus>
          <Label>{t('room.chatInput')}</Label>
          <Input className="input" autoComplete="off" />
        </TextField>
        {failed && <p role="alert">{t('room.chatFailed')}</p>}
        <Button type="submit" className="btn">
          {t('room.send')}
        </Button>
      </Form>
    </aside>
  );
}
