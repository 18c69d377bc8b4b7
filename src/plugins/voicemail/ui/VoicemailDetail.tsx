import type { RefObject } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { useKernel, useMaybeService } from '../../../kernel';
import { ContactsApi, TelephonyApi } from '../../../contracts';
import { formatPhone } from '../../../wire/phone';
import { expandTranscript } from '../api';
import { clock, formatDuration } from '../model';
import { player } from '../player';
import { vmState, type Voicemail } from '../state';

export function VoicemailPlayer({ voicemail, run }: { voicemail: Voicemail; run(command: string): void }) {
  const { t } = useTranslation('voicemail');
  const p = useSnapshot(vmState).player;
  const mine = p.id === voicemail.id;
  const audio = mine ? p.audio : 'idle';
  const playing = mine && p.playing;
  const duration = mine && p.duration > 0 ? p.duration : voicemail.durationSeconds;
  const position = mine ? p.position : 0;
  const status = audio === 'loading' ? t('player.loading') : audio === 'failed' ? t('player.failed') : playing ? t('player.playing') : audio === 'ready' ? t('player.paused') : t('player.idle');
  return (
    <div className="vm-player" role="group" aria-label={t('player.label')}>
      <Button className="btn primary vm-play" isDisabled={audio === 'loading'} onPress={() => run('voicemail.playPause')}>
        {playing ? t('player.pause') : t('player.play')}
      </Button>
      {/* A native range: keyboard-operable (arrows, Page Up/Down, Home/End) and read out by screen readers. */}
      <input
        type="range"
        className="vm-seek"
        min={0}
        max={Math.max(1, Math.round(duration))}
        step={1}
        value={Math.round(position)}
        disabled={audio !== 'ready'}
        onChange={(e) => player.seek(Number(e.target.value))}
        aria-label={t('player.position')}
        aria-valuetext={`${clock(position)} / ${clock(duration)}`}
      />
      <span className="vm-time" aria-hidden="true">{`${clock(position)} / ${clock(duration)}`}</span>
      <span className={`vm-status${audio === 'failed' ? ' error' : ''}`} data-state={audio === 'ready' ? (playing ? 'playing' : 'paused') : audio}>
        {status}
      </span>
    </div>
  );
}

export function VoicemailDetail({ voicemail: v, headingRef, onBack, run }: { voicemail: Voicemail; headingRef: RefObject<HTMLHeadingElement | null>; onBack(): void; run(command: string): void }) {
  const { t, i18n } = useTranslation('voicemail');
  const services = useKernel();
  const contacts = useMaybeService(ContactsApi);
  const telephony = useMaybeService(TelephonyApi);
  const expanded = useSnapshot(vmState).expanded.includes(v.id);
  const contact = contacts?.lookupNumber(v.callerNumber);
  const name = contact?.name ?? v.callerName ?? formatPhone(v.callerNumber);
  const digits = v.callerNumber.replace(/\D/g, '');
  const numberType = digits.length <= 6 ? t('detail.types.extension') : t('detail.types.external');
  const transcriptState = { None: 'none', 'In Progress': 'inProgress', Failed: 'failed', Succeeded: 'succeeded' }[v.transcriptState];
  return (
    <article className="vm-detail">
      <Button className="btn vm-back" onPress={onBack}>
        {t('detail.back')}
      </Button>
      <h2 id="vm-detail-heading" ref={headingRef} tabIndex={-1}>
        {name}
      </h2>
      <p className="vm-status-line">{v.status === 'UNREAD' ? t('unread') : t('read')}</p>
      <dl className="vm-facts">
        <dt>{t('detail.callerName')}</dt>
        <dd>{v.callerName ?? t('detail.unknown')}</dd>
        <dt>{t('detail.number')}</dt>
        <dd>
          {formatPhone(v.callerNumber)} <span className="muted">({numberType})</span>
        </dd>
        <dt>{t('detail.contact')}</dt>
        <dd>{contact?.name ?? t('detail.noContact')}</dd>
        <dt>{t('detail.received')}</dt>
        <dd>{new Intl.DateTimeFormat(i18n.language, { dateStyle: 'full', timeStyle: 'short' }).format(new Date(v.timestamp))}</dd>
        <dt>{t('detail.duration')}</dt>
        <dd>{formatDuration(v.durationSeconds, i18n.language)}</dd>
      </dl>
      <VoicemailPlayer voicemail={v} run={run} />
      <div className="vm-actions">
        <Button className="btn" onPress={() => run('voicemail.toggleRead')}>
          {v.status === 'UNREAD' ? t('actions.markRead') : t('actions.markUnread')}
        </Button>
        <Button className="btn" isDisabled={!telephony} onPress={() => run('voicemail.callBack')}>
          {t('actions.callBack')}
        </Button>
        <Button className="btn" onPress={() => run('voicemail.download')}>
          {t('actions.download')}
        </Button>
        <Button className="btn danger" onPress={() => run('voicemail.delete')}>
          {t('actions.delete')}
        </Button>
      </div>
      <section className="vm-transcript">
        <h3>
          <Button className="btn vm-transcript-toggle" aria-expanded={expanded} aria-controls="vm-transcript-body" onPress={() => void expandTranscript(services, v.id, !expanded)}>
            {expanded ? t('transcript.hide') : t('transcript.show')}
          </Button>
        </h3>
        {expanded && (
          <div id="vm-transcript-body" className="vm-transcript-body">
            {v.transcriptState === 'Succeeded' && v.transcript !== null ? <p>{v.transcript}</p> : <p className="muted">{t(`transcript.${transcriptState}`)}</p>}
          </div>
        )}
      </section>
    </article>
  );
}
