import { useParams } from '@tanstack/react-router';
import { use, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, FieldError, Form, Input, Label, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { ApiError, GuestVisit, Notifications, Session, useKernel } from '../../../kernel';
import { LOBBY_HEARTBEAT_MS, LOBBY_REFRESH_MS, type LobbyOccupant, type MeetingInfo, type MeetingMedia } from '../../../wire/meetings';
import { enterLobby, fetchMeetingInfo, joinMedia, leaveLobby, readLobby, startWithVideo } from '../api';
import { activeSession } from '../media/active';
import type { EndReason, StartControls } from '../media/session';
import { MeetingRoom } from './MeetingRoom';
import { log } from '../log';
import { lobbyChanges, lobbyParams, pinForJoin } from '../model';
import { strings } from '../strings';
import './meetings.css';

/*
 * The meeting window (`/uc/{alias}/{slug}`) until the meeting page with audio and video lands: the
 * meeting's name and time, the PIN check, and who is in the lobby (the server's places, kept by a
 * heartbeat and given up on leaving or closing the window).
 */
export default function LobbyScreen() {
  const { i18n } = useTranslation('meetings');
  use(strings(i18n.language));
  return <Lobby />;
}

type Phase =
  | { kind: 'loading' }
  | { kind: 'failed'; notFound: boolean }
  | { kind: 'pin'; error?: string }
  | { kind: 'closed'; text: string }
  | { kind: 'in' }
  | { kind: 'joining' }
  | { kind: 'waiting'; forHost: boolean }
  | { kind: 'meeting'; media: MeetingMedia; start: StartControls }
  | { kind: 'ended'; reason: EndReason; retryMs?: number; attempt?: number }
  | { kind: 'left' };

const RETRY_STEP_MS = 1000;
const RETRY_MAX_MS = 15_000;
const ROOM_GONE_RETRY_MS = 5000;
const WAITING_POLL_MS = 3000;

const randomClient = () => Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');

function Lobby() {
  const { t, i18n } = useTranslation('meetings');
  const kernel = useKernel();
  const { slug } = useParams({ strict: false }) as { slug?: string };
  // Read once: the address is tidied (show_login_prompt dropped) once the lobby is entered.
  const [params] = useState(() => lobbyParams(location.search));
  // The window's key: the session it was opened for, else its own (a second window of one session is the same place).
  const [client] = useState(() => params.ssid ?? randomClient());
  const [info, setInfo] = useState<MeetingInfo | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [occupants, setOccupants] = useState<readonly LobbyOccupant[]>([]);
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  const shown = useRef<readonly LobbyOccupant[] | null>(null);
  // The PIN that let the user in: a heartbeat after a lapse (a sleeping laptop) needs it again.
  const pinIn = useRef<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  /** Who is in now; others arriving or leaving are announced to screen readers. */
  const show = useCallback(
    (next: readonly LobbyOccupant[]) => {
      if (shown.current) {
        const { arrived, left } = lobbyChanges(shown.current, next);
        const notify = kernel.get(Notifications);
        for (const o of arrived) notify.announce(t('lobby.arrived', { name: o.name }));
        for (const o of left) notify.announce(t('lobby.left', { name: o.name }));
      }
      shown.current = next;
      setOccupants(next);
    },
    [kernel, t],
  );

  const enter = useCallback(
    async (m: MeetingInfo, typed: string | null): Promise<void> => {
      setBusy(true);
      try {
        show((await enterLobby(kernel, m.id, { client_id: client, pin: typed, state: params.state })).occupants);
        pinIn.current = typed;
        setPhase({ kind: 'in' });
        if (params.showLoginPrompt) {
          // Signed in again (the sign-in page brought the user back here): the prompt is done with.
          const url = new URL(location.href);
          url.searchParams.delete('show_login_prompt');
          history.replaceState(history.state, '', url);
          kernel.get(Notifications).announce(t('lobby.signedInAgain'));
        }
      } catch (err) {
        if (err instanceof ApiError && err.body.error === 'wrong_pin') setPhase({ kind: 'pin', error: t('lobby.wrongPin') });
        else if (err instanceof ApiError && (err.body.error === 'join_too_early' || err.body.error === 'meeting_ended')) {
          const at = m.start ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(Date.parse(m.start) - 10 * 60_000) : '';
          setPhase({ kind: 'closed', text: err.body.error === 'meeting_ended' ? t('join.ended') : t('join.early', { at }) });
        } else {
          log.warn('lobby not entered', err);
          setPhase({ kind: 'failed', notFound: false });
        }
      } finally {
        setBusy(false);
      }
    },
    [kernel, client, params, show, t, i18n.language],
  );

  const load = useCallback(async () => {
    setPhase({ kind: 'loading' });
    try {
      const m = await fetchMeetingInfo(kernel, slug ?? '');
      setInfo(m);
      if (m.needs_pin && !params.pin) setPhase({ kind: 'pin' });
      else await enter(m, params.pin);
    } catch (err) {
      log.warn('meeting info not read', err);
      setPhase({ kind: 'failed', notFound: err instanceof ApiError && (err.status === 404 || err.status === 400) });
    }
  }, [kernel, slug, params, enter]);

  useEffect(() => {
    void load();
  }, [load]);

  // In the lobby: the heartbeat keeps the place, the refresh shows who else is in; leaving (or
  // closing the window) gives the place up.
  const inLobby = (phase.kind === 'in' || phase.kind === 'joining' || phase.kind === 'waiting' || phase.kind === 'meeting' || phase.kind === 'ended') && info !== null;
  useEffect(() => {
    if (!inLobby || !info) return;
    const id = info.id;
    const beat = setInterval(() => {
      enterLobby(kernel, id, { client_id: client, pin: pinIn.current, state: params.state }).then(
        (l) => show(l.occupants),
        (err: unknown) => {
          // The occurrence is over: the lobby closes with it.
          if (err instanceof ApiError && err.body.error === 'meeting_ended') setPhase({ kind: 'closed', text: t('join.ended') });
          else log.warn('lobby heartbeat failed', err);
        },
      );
    }, LOBBY_HEARTBEAT_MS);
    const refresh = setInterval(() => {
      readLobby(kernel, id).then(
        (l) => show(l.occupants),
        (err: unknown) => log.warn('lobby not read', err),
      );
    }, LOBBY_REFRESH_MS);
    const onHide = () => void leaveLobby(kernel, id, client).catch(() => undefined);
    window.addEventListener('pagehide', onHide);
    return () => {
      clearInterval(beat);
      clearInterval(refresh);
      window.removeEventListener('pagehide', onHide);
      onHide();
    };
  }, [inLobby, info, kernel, client, params.state, show, t]);

  // Once in, the meeting's heading takes the focus (the PIN field has it while the PIN is asked).
  useEffect(() => {
    if (phase.kind === 'in') headingRef.current?.focus({ preventScroll: true });
  }, [phase.kind]);

  /** From the lobby into the meeting's media: the room, its PIN and TURN credentials come from the API. */
  const joinNow = async () => {
    if (!info) return;
    // Asked again from the waiting room: the page stays as it is (no flicker, nothing re-announced).
    setPhase((p) => (p.kind === 'waiting' ? p : { kind: 'joining' }));
    try {
      // Back after a lost connection: the microphone and camera as they were; else the user's setting.
      const before = lastControls.current;
      const [media, video] = await Promise.all([joinMedia(kernel, info.id), before ? before.video : startWithVideo(kernel)]);
      setPhase({ kind: 'meeting', media, start: { video, muted: before?.muted ?? false } });
    } catch (err) {
      // The waiting room, or a meeting only its host may start: asked again until let in.
      if (err instanceof ApiError && (err.body.error === 'waiting' || err.body.error === 'waiting_for_host')) return setPhase({ kind: 'waiting', forHost: err.body.error === 'waiting_for_host' });
      if (err instanceof ApiError && err.body.error === 'denied') return setPhase({ kind: 'ended', reason: 'denied' });
      log.warn('meeting media not granted', err);
      onMediaEnded(err instanceof ApiError && err.status >= 400 && err.status < 500 && err.body.error !== 'not_in_lobby' ? 'failed' : 'lost');
    }
  };
  /**
   * A lost media server (or room) is joined again by itself: one second more per try up to 15 s, a
   * room that is gone after 5 s (the next join makes it again); the rest waits for the user.
   */
  const attempts = useRef(0);
  const lastControls = useRef<StartControls | null>(null);
  const onMediaEnded = (reason: EndReason) => {
    const self = activeSession()?.state.self;
    lastControls.current = reason === 'lost' || reason === 'gone' ? (self ? { video: self.camera, muted: self.muted } : lastControls.current) : null;
    if (reason === 'left') return setPhase({ kind: 'left' });
    if (reason !== 'lost' && reason !== 'gone') return setPhase({ kind: 'ended', reason });
    attempts.current++;
    setPhase({ kind: 'ended', reason, retryMs: reason === 'gone' ? ROOM_GONE_RETRY_MS : Math.min(attempts.current * RETRY_STEP_MS, RETRY_MAX_MS), attempt: attempts.current });
  };
  const waitingNow = phase.kind === 'waiting';
  useEffect(() => {
    if (!waitingNow) return;
    const timer = setTimeout(() => void joinNow(), WAITING_POLL_MS);
    return () => clearTimeout(timer);
    // Each ask answers with a new phase object: the next ask follows it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [phase]);
  const retryMs = phase.kind === 'ended' ? phase.retryMs : undefined;
  useEffect(() => {
    if (retryMs === undefined || !info) return;
    const timer = setTimeout(() => {
      // The lobby place may have lapsed while the media was away: take it again first.
      void enterLobby(kernel, info.id, { client_id: client, pin: pinIn.current, state: params.state })
        .catch((err: unknown) => log.warn('lobby not entered again', err))
        .then(() => joinNow());
    }, retryMs);
    return () => clearTimeout(timer);
    // joinNow is this render's; the timer belongs to this one ended phase.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [phase]);
  // A guest (the shell's guest mode) has no account: their tile says they are a guest, in their language.
  const guest = kernel.maybe(GuestVisit);
  const session = guest ? null : kernel.get(Session);
  const who = guest
    ? { name: t('lobby.guestName', { name: guest.name }), userId: -guest.guestId }
    : { name: `${session!.profile.first_name} ${session!.profile.last_name}`.trim() || session!.profile.username, userId: session!.userId };

  const submitPin = () => {
    if (!info) return;
    const p = pinForJoin(pin);
    if (!p) return setPhase({ kind: 'pin', error: t('errors.pin') });
    // The masked PIN ('****') is no PIN: it does nothing.
    if (p.pin === null) return;
    void enter(info, p.pin);
  };

  const when = useMemo(() => {
    if (!info?.start || !info.end) return null;
    return new Intl.DateTimeFormat(i18n.language, { dateStyle: 'full', timeStyle: 'short' }).formatRange(new Date(info.start), new Date(info.end));
  }, [info, i18n.language]);

  if (phase.kind === 'loading' && !info) {
    return (
      <div className="mt-lobby">
        <p role="status" className="muted">
          {t('lobby.loading')}
        </p>
      </div>
    );
  }
  if (phase.kind === 'failed') {
    return (
      <div className="mt-lobby">
        <p role="alert">{phase.notFound ? t('lobby.notFound') : t('lobby.failed')}</p>
        {!phase.notFound && (
          <Button className="btn" onPress={() => void load()}>
            {t('lobby.retry')}
          </Button>
        )}
      </div>
    );
  }
  const others = params.invitees.length ? params.invitees : [];
  return (
    <div className="mt-lobby">
      <h2 ref={headingRef} tabIndex={-1}>
        {info?.meeting_title}
      </h2>
      <dl className="mt-facts">
        <dt>{t('lobby.when')}</dt>
        <dd>{when ?? t('lobby.anyTime')}</dd>
        <dt>{t('detail.bookedBy')}</dt>
        <dd>{info?.owner_name}</dd>
      </dl>
      {phase.kind !== 'meeting' && <p className="mt-lobby-media">{t('lobby.media')}</p>}

      {phase.kind === 'pin' && (
        <Form
          className="mt-lobby-pin"
          validationBehavior="aria"
          onSubmit={(e) => {
            e.preventDefault();
            submitPin();
          }}
        >
          <p>{t('lobby.pinNeeded')}</p>
          <TextField className="field" value={pin} onChange={setPin} isInvalid={!!phase.error} type="password" inputMode="numeric" autoFocus>
            <Label>{t('lobby.pin')}</Label>
            <Input className="input" autoComplete="off" />
            <FieldError className="field-error">{phase.error}</FieldError>
          </TextField>
          <Button type="submit" className="btn primary" isPending={busy}>
            {t('lobby.enter')}
          </Button>
        </Form>
      )}

      {phase.kind === 'closed' && <p role="status">{phase.text}</p>}

      {phase.kind === 'meeting' && (
        <MeetingRoom meetingId={info!.id} media={phase.media} who={who} start={phase.start} onJoined={() => (attempts.current = 0)} onEnded={onMediaEnded} />
      )}

      {phase.kind === 'ended' && (
        <>
          <p role="alert">{t(`room.ended.${phase.reason}`)}</p>
          {phase.retryMs !== undefined && <p role="status">{t('room.rejoining', { n: phase.attempt, s: Math.round(phase.retryMs / 1000) })}</p>}
          <Button className="btn primary" onPress={() => void joinNow()}>
            {phase.retryMs !== undefined ? t('room.tryNow') : t('room.rejoin')}
          </Button>
        </>
      )}

      {phase.kind === 'waiting' && (
        <p role="status" className="mt-waiting">
          {phase.forHost ? t('room.waitingForHost') : t('room.waiting')}
        </p>
      )}

      {(phase.kind === 'in' || phase.kind === 'joining' || phase.kind === 'waiting') && (
        <section aria-labelledby="mt-lobby-in">
          {/* Not React Aria's isPending: its announcement names the button by id, and the button is gone once in (axe: role-img-alt). */}
          <Button className="btn primary" onPress={() => void joinNow()} isDisabled={phase.kind === 'joining' || phase.kind === 'waiting'}>
            {t('room.join')}
          </Button>
          <h3 id="mt-lobby-in">{t('lobby.inLobby', { n: occupants.length })}</h3>
          <ul className="mt-lobby-people" aria-labelledby="mt-lobby-in">
            {occupants.map((o) => {
              const shownName = o.is_guest ? t('lobby.guestName', { name: o.name }) : o.name;
              const name = o.is_self ? t('lobby.you', { name: shownName }) : shownName;
              return <li key={o.user_id}>{o.state ? t('lobby.withState', { name, state: t(`lobby.state.${o.state}`) }) : name}</li>;
            })}
          </ul>
          {others.length > 0 && (
            <>
              <h3 id="mt-lobby-invited">{t('lobby.invited')}</h3>
              <ul className="mt-lobby-people" aria-labelledby="mt-lobby-invited">
                {others.map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            </>
          )}
          <Button
            className="btn"
            onPress={() => {
              // Leaving the 'in' phase gives the place up (the heartbeat's cleanup).
              shown.current = null;
              setPhase({ kind: 'left' });
            }}
          >
            {t('lobby.leave')}
          </Button>
        </section>
      )}

      {phase.kind === 'left' && (
        <>
          <p role="status">{t('lobby.leftNote')}</p>
          <Button className="btn primary" onPress={() => info && void enter(info, params.pin)}>
            {t('lobby.enterAgain')}
          </Button>
        </>
      )}
    </div>
  );
}
