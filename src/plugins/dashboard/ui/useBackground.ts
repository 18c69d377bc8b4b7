import { useEffect, useState } from 'react';
import { Preferences, useService } from '../../../kernel';
import { DASHBOARD_BACKGROUNDS, dashboardBackgroundUrl, type DashboardBackground } from '../../../wire/dashboardBackgrounds';

/** One of the five, picked once per visit (the "random" choice changes at each visit, not at each render). */
const anyBackground = () => dashboardBackgroundUrl(DASHBOARD_BACKGROUNDS[Math.floor(Math.random() * DASHBOARD_BACKGROUNDS.length)]!);
const known = (url: string | null): url is string => !!url && DASHBOARD_BACKGROUNDS.some((b) => dashboardBackgroundUrl(b) === url);

/** The chosen background's URL (never saved: the first of the five), following a change saved in the preferences. */
export function useBackground(): string {
  const prefs = useService(Preferences);
  const [url, setUrl] = useState<string>(dashboardBackgroundUrl(DASHBOARD_BACKGROUNDS[0]));
  useEffect(() => {
    let live = true;
    const apply = (v: unknown) => {
      const b = v as DashboardBackground | false;
      if (live) setUrl(b && b.random ? anyBackground() : b && known(b.url) ? b.url : dashboardBackgroundUrl(DASHBOARD_BACKGROUNDS[0]));
    };
    prefs.get<DashboardBackground>('uc-dashboard-background').then(apply, () => undefined);
    const sub = prefs.onChange?.('uc-dashboard-background', apply);
    return () => {
      live = false;
      sub?.dispose();
    };
  }, [prefs]);
  return url;
}
