import { useEffect, useState, useSyncExternalStore, type RefObject } from 'react';
import { Button, Focusable, Tooltip, TooltipTrigger } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useKernel } from '../../../kernel';
import type { Meeting } from '../../../wire/meetings';
import { copied } from '../meeting';
import { attendeeTooltip, avatarStack, dialIns, initialsOf, joinState, MASKED_PIN } from '../model';

const subscribeCopied = (l: () => void) => (copied.listeners.add(l), () => void copied.listeners.delete(l));
const copiedKey = () => copied.key;

/** Re-renders every 30 s: the Join button appears when the window opens without a reload. */
function useNow(ms = 30_000): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/** Faces of the first attendees, "+n", and a tooltip naming up to ~47 of them. */
export function AvatarStack({ names }: { names: readonly string[] }) {
  const { t } = useTranslation('meetings');
  if (!names.length) return null;
  const { shown, more } = avatarStack(names);
  const tip = attendeeTooltip(names);
  const text = tip.more ? t('detail.tooltipMore', { names: tip.names.join(', '), count: tip.more }) : tip.names.join(', ');
  return (
    <TooltipTrigger delay={300}>
      <Focusable>
        <span className="mt-avatars" role="img" aria-label={text} tabIndex={0}>
          {shown.map((n, i) => (
            <span key={i} className="mt-avatar" aria-hidden="true">
              {initialsOf(n)}
            </span>
          ))}
          {more > 0 && (
            <span className="mt-avatar more" aria-hidden="true">
              +{more}
            </span>
          )}
        </span>
      </Focusable>
      <Tooltip className="tooltip mt-tooltip">{text}</Tooltip>
    </TooltipTrigger>
  );
}

export function MeetingDetail({ meeting: m, headingRef, onBack }: { meeting: Meeting; headingRef: RefObject<HTMLHeadingElement | null>; onBack(): void }) {
  const { t, i18n } = useTranslation('meetings');
  const kernel = useKernel();
  const now = useNow();
  const [showPin, setShowPin] = useState(false);
  const isCopied = useSyncExternalStore(subscribeCopied, copiedKey) === m.key;
  useEffect(() => setShowPin(false), [m.key]);
  const run = (c: string) => void kernel.run(`meetings.${c}`, { key: m.key }, 'button');
  const join = joinState(m, now);
  const range = m.start && m.end ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'full', timeStyle: 'short' }).formatRange(Date.parse(m.start), Date.parse(m.end)) : null;
  const days = m.recurrence?.day_in_week
    .map((on, i) => (on ? new Intl.DateTimeFormat(i18n.language, { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(2024, 0, 1 + i)) : null))
    .filter(Boolean)
    .join(', ');
  const names = m.attendees.map((a) => a.name);
  return (
    <article className="mt-detail">
      <Button className="btn mt-back" onPress={onBack}>
        {t('detail.back')}
      </Button>
      <h2 id="mt-detail-heading" ref={headingRef} tabIndex={-1}>
        {m.meeting_name}
      </h2>
      {range && <p className="mt-when">{range}</p>}
      {m.recurrence && <p className="mt-when">{t(`detail.occurs.${m.recurrence.occurs}`, { days })}</p>}
      <div className="mt-actions">
        {join.kind === 'open' ? (
          <Button className="btn primary" onPress={() => run('join')}>
            {t('detail.join')}
          </Button>
        ) : (
          <p className="mt-join-note">
            {join.kind === 'early'
              ? t('detail.joinFrom', { at: new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(join.opensAt) })
              : join.kind === 'ended'
                ? t('detail.ended')
                : t('detail.noId')}
          </p>
        )}
        {m.editable && (
          <Button className="btn" onPress={() => run('edit')}>
            {t('detail.edit')}
          </Button>
        )}
        {m.source === 'uc' && (
          <Button className="btn" onPress={() => run('addToCalendar')}>
            {t('detail.addToCalendar')}
          </Button>
        )}
        {m.editable && (
          <Button className="btn danger" onPress={() => run('delete')}>
            {t('detail.delete')}
          </Button>
        )}
      </div>
      <p className="muted mt-join-help">{t('detail.joinHelp')}</p>
      <dl className="mt-facts">
        <dt>{t('detail.bookedBy')}</dt>
        <dd>{m.booked_by}</dd>
        {m.meeting_access_code && (
          <>
            <dt>{t('detail.id')}</dt>
            <dd>{m.meeting_access_code}</dd>
          </>
        )}
        {m.has_pin && (
          <>
            <dt>{t('detail.pin')}</dt>
            <dd>
              <span className="mt-pin">{showPin && m.pin ? m.pin : MASKED_PIN}</span>{' '}
              {m.pin && (
                <Button className="btn small" onPress={() => setShowPin((v) => !v)} aria-pressed={showPin}>
                  {t('detail.showPin')}
                </Button>
              )}
            </dd>
          </>
        )}
        {dialIns(m).length > 0 && (
          <>
            <dt>{t('detail.dialIn')}</dt>
            <dd className="mt-dial-in">{dialIns(m).join(', ')}</dd>
          </>
        )}
        {m.url && (
          <>
            <dt>{t('detail.link')}</dt>
            <dd className="mt-link">
              <a href={m.url} target="_blank" rel="noreferrer">
                {m.url}
              </a>{' '}
              <Button className="btn small" onPress={() => run('copyLink')}>
                {isCopied ? t('detail.copied') : t('detail.copy')}
              </Button>
            </dd>
          </>
        )}
        <dt>{t('detail.invitees')}</dt>
        <dd>
          {names.length ? (
            <>
              <AvatarStack names={names} />
              <ul className="mt-invitees">
                {m.attendees.map((a, i) => (
                  <li key={i}>
                    {a.name}
                    {a.is_guest && a.email && a.email !== a.name ? ` <${a.email}>` : ''}
                    {a.is_moderator ? ` (${t('detail.moderator')})` : ''}
                  </li>
                ))}
              </ul>
            </>
          ) : (
            t('detail.noInvitees')
          )}
        </dd>
      </dl>
      {m.meeting_description && (
        <section className="mt-description" aria-labelledby="mt-desc-h">
          <h3 id="mt-desc-h">{t('detail.description')}</h3>
          <p>{m.meeting_description}</p>
        </section>
      )}
      {m.bookmarks.length > 0 && (
        <section aria-labelledby="mt-bm-h">
          <h3 id="mt-bm-h">{t('detail.bookmarks')}</h3>
          <ul className="mt-bookmarks">
            {m.bookmarks.map((b) => (
              <li key={b}>
                <a href={/^https?:\/\//i.test(b) ? b : `https://${b}`} target="_blank" rel="noreferrer">
                  {b}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}
