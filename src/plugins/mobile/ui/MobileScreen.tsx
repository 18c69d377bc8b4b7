import QRCode from 'qrcode';
import { use, useEffect, useMemo } from 'react';
import { Button, Link } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Session, useKernel } from '../../../kernel';
import { mobileSignInLink } from '../../../wire/mobile';
import { loadApps, newCode } from '../api';
import { qrPath, renewDelayMs } from '../model';
import { mobileState, resetMobileState } from '../state';
import { strings } from '../strings';
import './mobile.css';

/** The store links the page offers, in this order, each shown when the deployment set it. */
const STORES = ['ios', 'android'] as const;

export default function MobileScreen() {
  const { i18n } = useTranslation('mobile');
  use(strings(i18n.language));
  return <Screen />;
}

function Screen() {
  const { t } = useTranslation('mobile');
  const kernel = useKernel();
  const s = useSnapshot(mobileState);
  const profile = useSnapshot(kernel.get(Session).profile);
  const name = [profile.first_name, profile.last_name].filter(Boolean).join(' ');

  useEffect(() => {
    void loadApps(kernel);
    void newCode(kernel);
    // Leaving the page forgets the code: nobody finds it on screen later.
    return resetMobileState;
  }, [kernel]);

  // The next code before this one expires, so the code on screen always works.
  useEffect(() => {
    if (!s.code) return;
    const timer = setTimeout(() => void newCode(kernel), renewDelayMs(s.expiresAt, Date.now()));
    return () => clearTimeout(timer);
  }, [kernel, s.code, s.expiresAt]);

  const qr = useMemo(() => {
    if (!s.code) return null;
    const code = QRCode.create(mobileSignInLink(window.location.origin, s.code), { errorCorrectionLevel: 'M' });
    return { size: code.modules.size, d: qrPath(code.modules) };
  }, [s.code]);

  return (
    <div className="mobile-screen">
      <section aria-labelledby="mobile-apps-heading" className="mobile-card">
        <h2 id="mobile-apps-heading">{t('apps.heading')}</h2>
        <p>{t('apps.intro')}</p>
        {s.apps && (s.apps.ios || s.apps.android) ? (
          <ul className="mobile-stores">
            {STORES.filter((store) => s.apps?.[store]).map((store) => (
              <li key={store}>
                <Link className="btn" href={s.apps![store]!} target="_blank" rel="noopener noreferrer">
                  {t(`apps.${store}`)}
                </Link>
              </li>
            ))}
          </ul>
        ) : s.apps ? (
          <p className="mobile-muted">{t('apps.none')}</p>
        ) : null}
      </section>
      <section aria-labelledby="mobile-qr-heading" className="mobile-card">
        <h2 id="mobile-qr-heading">{t('qr.heading')}</h2>
        <p>{t('qr.intro')}</p>
        <div className="mobile-qr" aria-busy={s.status === 'loading' || undefined}>
          {qr ? (
            <svg role="img" aria-label={t('qr.label', { name })} viewBox={`-4 -4 ${qr.size + 8} ${qr.size + 8}`} width="232" height="232" shapeRendering="crispEdges">
              <rect x="-4" y="-4" width={qr.size + 8} height={qr.size + 8} fill="#fff" />
              <path d={qr.d} fill="#000" />
            </svg>
          ) : (
            <p className="mobile-muted">{s.status === 'failed' ? t('errors.qr') : t('qr.loading')}</p>
          )}
        </div>
        <p className="mobile-muted">{t('qr.renews')}</p>
        <p role="status" className="mobile-status">
          {s.status === 'failed' ? t('errors.qr') : ''}
        </p>
        <Button className="btn" onPress={() => void newCode(kernel)}>
          {t('qr.new')}
        </Button>
      </section>
    </div>
  );
}
