import { useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useCommand, useKernel, useMaybeService } from '../../../kernel';
import { MEETINGS_JOIN_COMMAND, TodaysMeetingsApi, type TodaysMeeting } from '../../../contracts';
import { dashboardCommands } from '../commands';

/** Meetings: today's, each with Join, and the join popup (a meeting's ID and PIN). Without the meetings plugin the card is not there. */
export function MeetingsCard() {
  const { t } = useTranslation('dashboard');
  const join = useCommand(dashboardCommands.ids.joinMeeting);
  const today = useToday();
  return (
    <section className="dash-card dash-meetings" aria-labelledby="dash-meetings-heading">
      <h2 id="dash-meetings-heading" className="dash-card-title">
        {t('meetings.heading')}
      </h2>
      {today !== undefined && <TodayList meetings={today} />}
      <p className="dash-muted">{t('meetings.hint')}</p>
      <Button className="btn primary" onPress={() => void join.run({}, 'button')} aria-keyshortcuts="Shift+I">
        {t('commands.joinMeeting')}
      </Button>
    </section>
  );
}

/** Today's meetings as the meetings plugin holds them (undefined: no such service; null: not loaded yet). */
function useToday(): TodaysMeeting[] | null | undefined {
  const service = useMaybeService(TodaysMeetingsApi);
  const [list, setList] = useState(() => service?.today(new Date()));
  useEffect(() => {
    const sub = service?.onChange(() => setList(service.today(new Date())));
    setList(service?.today(new Date()));
    return () => sub?.dispose();
  }, [service]);
  return list;
}

function TodayList({ meetings }: { meetings: TodaysMeeting[] | null }) {
  const { t, i18n } = useTranslation('dashboard');
  const kernel = useKernel();
  if (meetings === null) return <p className="dash-muted">{t('meetings.loading')}</p>;
  if (!meetings.length) return <p className="dash-muted">{t('meetings.noneToday')}</p>;
  const time = new Intl.DateTimeFormat(i18n.language, { timeStyle: 'short' });
  return (
    <ul className="dash-people" aria-label={t('meetings.today')}>
      {meetings.map((m) => (
        <li key={m.key} className="dash-person">
          <span className="dash-person-name">
            <span className="dash-meeting-time">{time.format(m.start)}</span> {m.name}
          </span>
          <Button className="btn" aria-label={t('meetings.joinOne', { name: m.name })} onPress={() => void kernel.run(MEETINGS_JOIN_COMMAND, { key: m.key }, 'button')}>
            {t('meetings.joinShort')}
          </Button>
        </li>
      ))}
    </ul>
  );
}
