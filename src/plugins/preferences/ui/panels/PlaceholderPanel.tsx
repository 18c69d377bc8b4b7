import { Link } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { PanelId } from '../../state';
import { PanelForm } from '../PanelForm';

/** Where each integration is set up: the service's own page, since this client connects none of them. */
export const SETUP_URLS = {
  integrations: 'https://help.acme-uc.example/integrations',
  connectwise: 'https://www.connectwise.com/',
  salesforce: 'https://www.salesforce.com/',
} as const;
type Placeholder = keyof typeof SETUP_URLS;

/**
 * The specification's bare placeholders: nothing to save, nothing connected; a way to the
 * service's own setup page in a new tab. No Save button either (PanelForm with nothing to save).
 */
function PlaceholderPanel({ panel }: { panel: Placeholder }) {
  const { t } = useTranslation('preferences');
  return (
    <PanelForm panel={panel} onSave={() => undefined} canSave={false} saving={false} hideSave>
      <p>{t('integrations.notConnected', { name: t(`panels.${panel}`) })}</p>
      <p>
        <Link className="prefs-link" href={SETUP_URLS[panel]} target="_blank" rel="noopener noreferrer">
          {t('integrations.setup', { name: t(`panels.${panel}`) })}
        </Link>
      </p>
    </PanelForm>
  );
}

export const IntegrationsPanel = () => <PlaceholderPanel panel="integrations" />;
export const ConnectWisePanel = () => <PlaceholderPanel panel="connectwise" />;
export const SalesforcePanel = () => <PlaceholderPanel panel="salesforce" />;
