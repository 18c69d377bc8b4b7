import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { clockText } from '../model';

/** The time now in the user's zone and language, redrawn at each minute's turn. */
export function ClockCard() {
  const { t, i18n } = useTranslation('dashboard');
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      setNow(new Date());
      timer = setTimeout(tick, 60_000 - (Date.now() % 60_000) + 50);
    };
    timer = setTimeout(tick, 60_000 - (Date.now() % 60_000) + 50);
    return () => clearTimeout(timer);
  }, []);
  const c = clockText(now, i18n.language);
  return (
    <section className="dash-card dash-clock" aria-labelledby="dash-clock-heading">
      <h2 id="dash-clock-heading" className="dash-card-title">
        {t('clock.heading')}
      </h2>
      <time className="dash-time" dateTime={now.toISOString()}>
        {c.time}
      </time>
      <p className="dash-date">{c.date}</p>
      <p className="dash-zone">{c.zone}</p>
    </section>
  );
}
