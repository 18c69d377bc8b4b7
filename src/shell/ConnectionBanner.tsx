import { useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { connections } from './services';
import type { ConnectionView } from './connections';

/** Re-renders every second while active; the countdown reads the clock at render, never a stale copy. */
function useEverySecond(active: boolean): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!active) return;
    const h = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(h);
  }, [active]);
}

/** Across the top: the worst connection's state, its retry countdown, and a manual retry. */
export function ConnectionBanner() {
  const { t } = useTranslation('shell');
  const views = useSnapshot(connections.views) as Record<string, ConnectionView>;
  const order = { manual: 0, retrying: 1, connecting: 2, success: 3, hidden: 9, silent: 9 } as const;
  const shown = Object.values(views)
    .filter((v) => v.phase !== 'hidden' && v.phase !== 'silent')
    .sort((a, b) => order[a.phase] - order[b.phase])[0];
  useEverySecond(shown?.phase === 'retrying');
  if (!shown) return null;
  const name = t(shown.labelKey);
  const seconds = shown.nextRetryAt ? Math.max(0, Math.ceil((shown.nextRetryAt - Date.now()) / 1000)) : 0;
  const message =
    shown.phase === 'connecting'
      ? t('banner.connecting', { name })
      : shown.phase === 'retrying'
        ? t('banner.retrying', { name, count: seconds })
        : shown.phase === 'success'
          ? t(shown.again ? 'banner.connected' : 'banner.connectedFirst', { name })
          : t('banner.lost', { name });
  // The status is one text node, the Retry button beside it: each change of state is one change of
  // the live region, said once (one text per phase made two, and "Chat is connected." was said twice).
  return (
    <div className={`banner banner-${shown.phase}`}>
      <span role="status" aria-live="polite">
        {message}
      </span>
      {shown.phase === 'manual' && (
        <>
          {' '}
          <Button className="btn" onPress={() => connections.retryNow(shown.id)}>
            {t('banner.retry')}
          </Button>
        </>
      )}
    </div>
  );
}
