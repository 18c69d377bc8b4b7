import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useCommand } from '../../../kernel';
import { dashboardCommands } from '../commands';

/** Meetings: the join popup (a meeting's ID and PIN). Without the meetings plugin the card is not there. */
export function MeetingsCard() {
  const { t } = useTranslation('dashboard');
  const join = useCommand(dashboardCommands.ids.joinMeeting);
  return (
    <section className="dash-card dash-meetings" aria-labelledby="dash-meetings-heading">
      <h2 id="dash-meetings-heading" className="dash-card-title">
        {t('meetings.heading')}
      </h2>
      <p className="dash-muted">{t('meetings.hint')}</p>
      <Button className="btn primary" onPress={() => void join.run({}, 'button')} aria-keyshortcuts="Shift+I">
        {t('commands.joinMeeting')}
      </Button>
    </section>
  );
}
