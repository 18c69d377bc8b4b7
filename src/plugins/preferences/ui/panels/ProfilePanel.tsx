import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Api, Session, useKernel, useService } from '../../../../kernel';
import { ProfileEditor } from '../../../../contracts';
import type { Profile } from '../../../../wire/profile';
import type { AvailabilityRegionList, E911Address } from '../../../../wire/profileExtras';
import { loadProfileExtras, type ProfileExtras } from '../../api';
import { log } from '../../log';
import { PREFERENCES_PATH, type ProfileModal } from '../../state';
import { ProfileEditModal } from './ProfileEditModal';
import { ProfilePhotoModal } from './ProfilePhotoModal';

/** The profile's detail view: who the user is, their emergency address and region; editing and the photo in modals. */
export function ProfilePanel() {
  const { t } = useTranslation('preferences');
  const kernel = useKernel();
  // The session's copy, loaded at sign-in and kept fresh app-wide (profileSync.ts); a save or a new photo updates it.
  const profile = useSnapshot(useService(Session).profile) as Profile;
  const [extras, setExtras] = useState<ProfileExtras | null>(null);
  const [modal, setModal] = useState<ProfileModal | null>(null);
  useAskedModal(setModal);
  // The form is the contacts' (ProfileEditor): without that plugin there is nothing to edit with.
  const canEdit = kernel.has(ProfileEditor);
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  useEffect(() => {
    let live = true;
    void loadProfileExtras(kernel).then((e) => live && setExtras(e));
    return () => void (live = false);
  }, [kernel]);
  // As PanelForm does once its panel has loaded: focus given earlier is taken back by a closing palette.
  const loaded = extras !== null;
  useEffect(() => {
    if (loaded) heading.current?.focus({ preventScroll: true });
  }, [loaded]);

  const name = `${profile.first_name} ${profile.last_name}`.trim();
  return (
    <section className="prefs-form" aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1} className="prefs-heading">
        {t('panels.profile')}
      </h2>
      <div className="prefs-profile-head">
        <Photo href={profile.avatar_href} name={name} />
        <div>
          <p className="prefs-profile-name">{name}</p>
          <p className="prefs-status">{profile.username}</p>
        </div>
      </div>
      <dl className="prefs-facts">
        <Fact label={t('profile.email')} value={profile.email} />
        <Fact label={t('profile.alias')} value={profile.alias} />
        <Fact label={t('profile.company')} value={profile.company} />
        <Fact label={t('profile.extension')} value={profile.extension} />
      </dl>
      <div className="prefs-actions">
        {canEdit && (
          <Button className="btn primary" onPress={() => setModal('edit')}>
            {t('profile.edit')}
          </Button>
        )}
        <Button className="btn" onPress={() => setModal('photo')}>
          {t('profile.uploadPhoto')}
        </Button>
      </div>
      <E911 value={extras?.e911} />
      <Region value={extras?.regions} />
      {modal === 'edit' && canEdit && <ProfileEditModal onClose={() => setModal(null)} />}
      {modal === 'photo' && <ProfilePhotoModal hasPhoto={!!profile.avatar_href} onClose={() => setModal(null)} />}
    </section>
  );
}

/**
 * A dialog asked for in the address (`&modal=edit`, as the own contact's "Edit profile" leads here)
 * opens, and leaves the address, so that a reload or Back does not open it again.
 */
function useAskedModal(open: (m: ProfileModal) => void): void {
  const asked = (useSearch({ strict: false }) as { modal?: ProfileModal }).modal;
  const navigate = useNavigate();
  useEffect(() => {
    if (!asked) return;
    open(asked);
    void navigate({ to: PREFERENCES_PATH, search: { panel: 'profile' }, replace: true });
  }, [asked, open, navigate]);
}

function Fact({ label, value }: { label: string; value: string | null }) {
  const { t } = useTranslation('preferences');
  return (
    <div className="prefs-fact">
      <dt className="prefs-label">{label}</dt>
      <dd>{value || t('profile.none')}</dd>
    </div>
  );
}

/** Avatars need the bearer token, so they are fetched as blobs rather than linked. */
function Photo({ href, name }: { href: string | null; name: string }) {
  const { t } = useTranslation('preferences');
  const api = useService(Api);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!href) return setUrl(null);
    let live = true;
    let made: string | null = null;
    void api.raw('GET', href).then(
      async (res) => {
        const blob = await res.blob();
        if (live) setUrl((made = URL.createObjectURL(blob)));
      },
      (err: unknown) => log.warn('profile photo', err),
    );
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [api, href]);
  if (url) return <img className="prefs-photo" src={url} alt={t('profile.photo', { name })} />;
  const initials = name.split(/\s+/).map((w) => w[0] ?? '').join('').slice(0, 2).toUpperCase();
  return (
    <span className="prefs-photo prefs-photo-initials" aria-hidden="true">
      {initials}
    </span>
  );
}

function Section({ titleKey, children }: { titleKey: string; children: ReactNode }) {
  const { t } = useTranslation('preferences');
  const id = useId();
  return (
    <section className="prefs-group" aria-labelledby={id}>
      <h3 id={id} className="prefs-subheading">
        {t(titleKey)}
      </h3>
      {children}
    </section>
  );
}

function E911({ value }: { value: E911Address | null | 'unavailable' | undefined }) {
  const { t } = useTranslation('preferences');
  return (
    <Section titleKey="profile.e911">
      {value === undefined ? (
        <p className="prefs-status">{t('loading')}</p>
      ) : value === 'unavailable' ? (
        <p className="prefs-error">{t('profile.unavailable')}</p>
      ) : value === null ? (
        <p>{t('profile.noE911')}</p>
      ) : (
        <address className="prefs-address">
          {[value.street1, value.street2, [value.city, value.state, value.zip_code].filter(Boolean).join(' '), value.county, value.country].filter(Boolean).map((line, i) => (
            <span key={i}>{line}</span>
          ))}
        </address>
      )}
    </Section>
  );
}

function Region({ value }: { value: AvailabilityRegionList | 'unavailable' | undefined }) {
  const { t } = useTranslation('preferences');
  const region = value && value !== 'unavailable' ? value.items.find((r) => r.id === value.user_region_id) : undefined;
  return (
    <Section titleKey="profile.region">
      {value === undefined ? (
        <p className="prefs-status">{t('loading')}</p>
      ) : value === 'unavailable' ? (
        <p className="prefs-error">{t('profile.unavailable')}</p>
      ) : !region ? (
        <p>{t('profile.noRegion')}</p>
      ) : (
        <dl className="prefs-facts">
          <Fact label={t('profile.regionName')} value={region.display_name} />
          <Fact label={t('profile.regionDescription')} value={region.description} />
          <Fact label={t('profile.regionStatus')} value={t(`profile.status.${region.status}`)} />
          <Fact label={t('profile.networkTest')} value={region.network_test_server?.hostname ?? null} />
        </dl>
      )}
    </Section>
  );
}
