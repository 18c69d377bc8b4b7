import { useEffect } from 'react';
import { Button, Label, Radio, RadioGroup } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { useKernel } from '../../../kernel';
import type { CompanyAccount } from '../../../wire/wizard';
import { confirmCompany, loadCompanies } from '../api';
import { addressLine, companyView } from '../model';
import { wizardState } from '../state';

/** The company (services account): confirm the configured one when it is listed, else select one of the active companies. */
export function CompanyStep({ onConfirmed }: { onConfirmed: () => void }) {
  const { t } = useTranslation('wizard');
  const kernel = useKernel();
  const s = useSnapshot(wizardState);
  useEffect(() => void loadCompanies(kernel), [kernel]);
  const companies = s.companies as CompanyAccount[] | null;
  if (s.companiesFailed) return <p role="alert">{t('company.failed')}</p>;
  if (!companies) return <p className="wz-muted">{t('loading')}</p>;
  if (!companies.length) return <p>{t('company.none')}</p>;

  const configured = s.info?.customerId ?? null;
  const confirm = async (customerId: string) => {
    if (await confirmCompany(kernel, customerId)) onConfirmed();
  };

  if (companyView(companies, configured) === 'confirm' && !s.changing) {
    const c = companies.find((x) => x.customerId === configured)!;
    return (
      <div className="wz-company">
        <p>{t('company.confirmText')}</p>
        <CompanyDetails company={c} />
        <div className="wz-actions">
          <Button className="btn primary" isDisabled={s.saving} onPress={() => void confirm(c.customerId)}>
            {t('company.confirm')}
          </Button>
          <Button className="btn" onPress={() => (wizardState.changing = true)}>
            {t('company.change')}
          </Button>
        </div>
      </div>
    );
  }
  const picked = s.picked ?? (companies.some((c) => c.customerId === configured) ? configured : null);
  return (
    <div className="wz-company">
      <RadioGroup className="wz-companies" value={picked} onChange={(v) => (wizardState.picked = v)}>
        <Label>{t('company.selectLabel')}</Label>
        {companies.map((c) => (
          <Radio key={c.customerId} value={c.customerId} className="wz-company-option">
            <span className="wz-company-name">{c.companyName}</span>
            <span className="wz-muted">
              {' '}
              {t('company.summary', { customerId: c.customerId, phone: c.billingPhone, address: addressLine(c.billingAddress) })}
            </span>
          </Radio>
        ))}
      </RadioGroup>
      <div className="wz-actions">
        <Button className="btn primary" isDisabled={!picked || s.saving} onPress={() => picked && void confirm(picked)}>
          {t('company.use')}
        </Button>
      </div>
    </div>
  );
}

function CompanyDetails({ company: c }: { company: CompanyAccount }) {
  const { t } = useTranslation('wizard');
  return (
    <div className="wz-company-details">
      <strong>{c.companyName}</strong>
      <dl>
        <dt>{t('company.customerId')}</dt>
        <dd>{c.customerId}</dd>
        <dt>{t('company.billingPhone')}</dt>
        <dd>{c.billingPhone}</dd>
        <dt>{t('company.billingAddress')}</dt>
        <dd>{addressLine(c.billingAddress)}</dd>
        <dt>{t('company.shippingAddress')}</dt>
        <dd>{addressLine(c.shippingAddress)}</dd>
        <dt>{t('company.siteAddress')}</dt>
        <dd>{addressLine(c.siteAddress)}</dd>
      </dl>
    </div>
  );
}
