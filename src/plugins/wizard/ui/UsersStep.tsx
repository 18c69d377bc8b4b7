import { useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { ChoiceSelect } from '../../../ui/ChoiceSelect';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Notifications, useKernel } from '../../../kernel';
import type { ImportReport, OrgUser, ServiceUser } from '../../../wire/wizard';
import { issuePasswordLink, loadUsers, saveMapping } from '../api';
import { wizardState } from '../state';
import { PasswordLinkDialog } from './PasswordLinkDialog';

const PAGE = 25;
const NONE = 'none';

/** The organisation's users (Username, FirstName, LastName, Enabled), each mapped to a services user; Save sends the changes. */
export function UsersStep() {
  const { t } = useTranslation('wizard');
  const kernel = useKernel();
  const s = useSnapshot(wizardState);
  const [page, setPage] = useState(0);
  useEffect(() => void (wizardState.users ?? loadUsers(kernel)), [kernel, s.users]);
  const users = s.users as OrgUser[] | null;
  const services = (s.serviceUsers ?? []) as ServiceUser[];
  return (
    <div className="wz-users">
      {s.upload.report && <Report report={s.upload.report as ImportReport} />}
      {s.usersErrorKey && <p role="alert" className="wz-error">{t(s.usersErrorKey)}</p>}
      {s.linkErrorKey && <p role="alert" className="wz-error">{t(s.linkErrorKey, s.linkErrorValues)}</p>}
      <PasswordLinkDialog />
      {!users ? (
        <p className="wz-muted">{t('loading')}</p>
      ) : (
        <>
          <p>{services.length ? t('users.text') : t('users.noServices')}</p>
          <table className="wz-table">
            <caption className="wz-muted">{t('users.caption', { from: Math.min(users.length, page * PAGE + 1), to: Math.min(users.length, (page + 1) * PAGE), total: users.length })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('users.username')}</th>
                <th scope="col">{t('users.firstName')}</th>
                <th scope="col">{t('users.lastName')}</th>
                <th scope="col">{t('users.enabled')}</th>
                <th scope="col">{t('users.serviceUser')}</th>
                <th scope="col">{t('users.password')}</th>
              </tr>
            </thead>
            <tbody>
              {users.slice(page * PAGE, (page + 1) * PAGE).map((u) => (
                <tr key={u.Username}>
                  <th scope="row">{u.Username}</th>
                  <td>{u.FirstName}</td>
                  <td>{u.LastName}</td>
                  <td>{u.Enabled === 'Yes' ? t('users.yes') : t('users.no')}</td>
                  <td>
                    <ChoiceSelect
                      className="wz-select"
                      ariaLabel={t('users.serviceUserFor', { username: u.Username })}
                      isDisabled={!services.length}
                      options={[{ id: NONE, text: t('users.none') }, ...services.map((x) => ({ id: String(x.id), text: `${x.name} (${x.username})` }))]}
                      selectedKey={String(s.mapping[u.Username] ?? NONE)}
                      onChange={(k) => (wizardState.mapping[u.Username] = k === NONE ? null : Number(k))}
                    />
                  </td>
                  <td>
                    {u.HasPassword ? (
                      t('users.passwordSet')
                    ) : u.Enabled === 'No' ? (
                      t('users.passwordNone')
                    ) : (
                      // Without a password the user cannot sign in: a one-time link lets them choose one.
                      <Button className="btn" aria-label={t('users.linkFor', { username: u.Username })} isDisabled={s.linkFor !== null} onPress={() => void issuePasswordLink(kernel, u.Username)}>
                        {t('users.link')}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="wz-actions">
            <Button className="btn" isDisabled={page === 0} onPress={() => setPage(page - 1)}>
              {t('users.previousPage')}
            </Button>
            <Button className="btn" isDisabled={(page + 1) * PAGE >= users.length} onPress={() => setPage(page + 1)}>
              {t('users.nextPage')}
            </Button>
            <Button className="btn primary" isDisabled={s.saving || !services.length} onPress={() => void saveMapping(kernel).then((ok) => ok && kernel.get(Notifications).announce(t('users.saved')))}>
              {t('users.save')}
            </Button>
          </div>
        </>
      )}
    </div>
  );
}

/** What the last upload did: how many rows became users, and each refused row with its reasons. */
function Report({ report }: { report: ImportReport }) {
  const { t } = useTranslation('wizard');
  return (
    <section className="wz-report" aria-labelledby="wz-report-heading">
      <h3 id="wz-report-heading">{t('report.title')}</h3>
      <p role="status">{t('report.summary', { accepted: report.accepted.length, refused: report.refused.length, total: report.total })}</p>
      {report.refused.length > 0 && (
        <table className="wz-table">
          <caption className="wz-muted">{t('report.refusedCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('report.line')}</th>
              <th scope="col">{t('users.username')}</th>
              <th scope="col">{t('report.reasons')}</th>
            </tr>
          </thead>
          <tbody>
            {report.refused.slice(0, 200).map((r) => (
              <tr key={r.line}>
                <td>{r.line}</td>
                <td>{r.Username}</td>
                <td>{r.reasons.map((x) => t(`refusals.${x}`)).join(' ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
