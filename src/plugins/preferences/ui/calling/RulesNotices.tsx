import { useTranslation } from 'react-i18next';
import type { SaveFailure } from '../../routing';
import type { RulesLoad } from './useCallingRules';

/** The error catalogue's no-permission notice: calling saves refused, or rules a user may not view. */
export function NotAuthorizedNotice() {
  const { t } = useTranslation('preferences');
  return (
    <div role="alert" className="prefs-notice">
      <p className="prefs-notice-title">{t('calling.notAuthorized')}</p>
      <p>{t('calling.contactAdmin')}</p>
    </div>
  );
}

/** "Save Failed!" with the server's message; a refusal naming 'authorized' is the no-permission notice. */
export function SaveFailureNotice({ failure }: { failure: SaveFailure | null }) {
  const { t } = useTranslation('preferences');
  if (!failure) return null;
  if (failure.kind === 'notAuthorized') return <NotAuthorizedNotice />;
  return (
    <div role="alert" className="prefs-notice">
      <p className="prefs-notice-title">{t('calling.saveFailed')}</p>
      <p>{failure.message ?? t('calling.tryAgain')}</p>
    </div>
  );
}

/** While the rules load, or why they are not shown; null once they are ready. */
export function RulesPending({ load }: { load: RulesLoad }) {
  const { t } = useTranslation('preferences');
  if (load === 'forbidden') return <NotAuthorizedNotice />;
  if (load === 'failed') return <p role="alert" className="prefs-error">{t('loadFailed')}</p>;
  if (load === 'loading') return <p className="prefs-status">{t('loading')}</p>;
  return null;
}
