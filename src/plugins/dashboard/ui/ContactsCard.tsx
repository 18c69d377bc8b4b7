import { useEffect, useMemo, useState } from 'react';
import { Button } from 'react-aria-components';
import { ChoiceSelect } from '../../../ui/ChoiceSelect';
import { useTranslation } from 'react-i18next';
import { useMaybeService } from '../../../kernel';
import { ContactGroupsApi, MessagingApi, PeerPresenceApi, TelephonyApi, type ResolvedContact } from '../../../contracts';
import type { ContactGroup } from '../../../wire/contactGroups';

/** The groups the card offers (the directory answers these without a server call). */
const DASHBOARD_GROUPS = ['user', 'favorites', 'personal', 'all'] as const satisfies readonly ContactGroup[];
type DashboardGroup = (typeof DASHBOARD_GROUPS)[number];
/** This browser's choice of group. */
const GROUP_STORAGE_KEY = 'uc-dashboard-group';

/** How many people the card shows (the specification's "first 5 contacts of a chosen group"). */
const SHOWN = 5;

const savedGroup = (): DashboardGroup => {
  const g = localStorage.getItem(GROUP_STORAGE_KEY);
  return (DASHBOARD_GROUPS as readonly string[]).includes(g ?? '') ? (g as DashboardGroup) : 'user';
};

/** The first five of a group, with Call and Message; the group is remembered on this browser. */
export function ContactsCard() {
  const { t } = useTranslation('dashboard');
  const groups = useMaybeService(ContactGroupsApi);
  const telephony = useMaybeService(TelephonyApi);
  const messaging = useMaybeService(MessagingApi);
  const presence = useMaybeService(PeerPresenceApi);
  // Presences change outside React; a change re-renders the five rows.
  const [, setPresenceVersion] = useState(0);
  useEffect(() => {
    const sub = presence?.onChange(() => setPresenceVersion((v) => v + 1));
    return () => sub?.dispose();
  }, [presence]);
  const [group, setGroup] = useState<DashboardGroup>(savedGroup);
  useEffect(() => localStorage.setItem(GROUP_STORAGE_KEY, group), [group]);
  // The directory is outside React: a change of it (loaded, refreshed, edited) reads the group again.
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const sub = groups?.onChange(() => setVersion((v) => v + 1));
    return () => sub?.dispose();
  }, [groups]);
  const people = useMemo(() => (groups?.loaded() ? groups.first(group, SHOWN) : null), [groups, group, version]);

  const message = (c: ResolvedContact) => {
    if (c.userId != null) messaging?.openChat(c.userId);
    else if (c.numbers[0]) messaging?.newText(c.numbers[0]);
  };

  return (
    <section className="dash-card dash-contacts" aria-labelledby="dash-contacts-heading">
      <h2 id="dash-contacts-heading" className="dash-card-title">
        {t('contacts.heading')}
      </h2>
      <ChoiceSelect
        className="dash-group"
        label={t('contacts.group')}
        labelClassName="dash-label"
        options={DASHBOARD_GROUPS.map((g) => ({ id: g, text: t(`contacts.groups.${g}`) }))}
        selectedKey={group}
        onChange={setGroup}
      />
      {!groups ? (
        <p className="dash-muted">{t('contacts.unavailable')}</p>
      ) : people === null ? (
        <p className="dash-muted">{t('contacts.loading')}</p>
      ) : people.length === 0 ? (
        <p className="dash-muted">{t('contacts.empty')}</p>
      ) : (
        <ul className="dash-people">
          {people.map((c) => (
            <li key={c.id} className="dash-person">
              <span className="dash-person-name">
                {c.name}
                <PresenceLine userId={c.self ? null : (c.userId ?? null)} of={presence?.of} />
              </span>
              <span className="dash-person-actions">
                {telephony && c.numbers[0] && !c.self && (
                  <Button className="btn" aria-label={t('contacts.call', { name: c.name })} onPress={() => void telephony.call(c.numbers[0]!, { displayName: c.name })}>
                    {t('contacts.callShort')}
                  </Button>
                )}
                {messaging && !c.self && (c.userId != null || c.numbers[0]) && (
                  <Button className="btn" aria-label={t('contacts.message', { name: c.name })} onPress={() => message(c)}>
                    {t('contacts.messageShort')}
                  </Button>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The colleague's presence under their name, when chat knows it. */
function PresenceLine({ userId, of }: { userId: number | null; of?: (userId: number) => { state: string; label: string } | null }) {
  const p = userId !== null && of ? of(userId) : null;
  return p ? (
    <span className="dash-presence" data-state={p.state}>
      {p.label}
    </span>
  ) : null;
}
