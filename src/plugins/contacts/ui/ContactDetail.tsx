import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type RefObject } from 'react';
import { Button, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Api, useCommand, useKernel, useService } from '../../../kernel';
import { COPY_LINK_RESET_MS } from '../../../wire/contacts';
import { contactKeys, fetchAvatarUrl, fetchContact, removeAvatar } from '../api';
import { initials } from './ContactList';
import { formatPhone, phoneLabel } from '../format';
import type { FormMode } from '../formModel';
import { contactsState } from '../state';

/** A button bound to a command; a disabled one keeps its reason visible beside it. */
function CommandButton({ id, primary = false }: { id: string; primary?: boolean }) {
  const { t } = useTranslation('contacts');
  const bound = useCommand(id);
  const reasonId = useId();
  if (!bound.command || !bound.visible) return null;
  const reason = bound.enablement === true ? null : bound.enablement;
  return (
    <div className="contacts-action">
      <Button className={primary ? 'btn primary' : 'btn'} isDisabled={reason !== null} aria-describedby={reason ? reasonId : undefined} onPress={() => void bound.run({}, 'button')}>
        {t(bound.command.titleKey)}
      </Button>
      {reason && (
        <p id={reasonId} className="contacts-reason">
          {t(reason.reasonKey, reason.values)}
        </p>
      )}
    </div>
  );
}

/** Avatars need the bearer token, so they are fetched as blobs rather than linked. */
function Avatar({ href, name }: { href: string | null; name: string }) {
  const api = useService(Api);
  const { t } = useTranslation('contacts');
  const { data: url } = useQuery({
    queryKey: contactKeys.avatar(href ?? ''),
    enabled: !!href,
    staleTime: Infinity,
    queryFn: () => fetchAvatarUrl(api, href!),
  });
  if (href && url) return <img className="contacts-photo" src={url} alt={t('detail.photo', { name })} />;
  return (
    <span className="contacts-photo contacts-photo-initials" aria-hidden="true">
      {initials(name)}
    </span>
  );
}

function CopyLink({ id }: { id: string }) {
  const { t } = useTranslation('contacts');
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_LINK_RESET_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Button
      className="btn"
      onPress={() => {
        const url = `${location.origin}/contacts?contact=${encodeURIComponent(id)}`;
        void navigator.clipboard?.writeText(url).catch(() => undefined);
        setCopied(true);
      }}
    >
      <span aria-live="polite">{copied ? t('detail.copied') : t('detail.copyLink')}</span>
    </Button>
  );
}

export interface ContactDetailProps {
  id: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onBack(): void;
  onEdit(mode: FormMode): void;
}

export function ContactDetail({ id, headingRef, onBack, onEdit }: ContactDetailProps) {
  const { t, i18n } = useTranslation('contacts');
  const api = useService(Api);
  const kernel = useKernel();
  const query = useQuery({
    queryKey: contactKeys.detail(id),
    queryFn: ({ signal }) => fetchContact(api, id, signal),
  });
  const contact = query.data;

  useEffect(() => {
    contactsState.selected = contact ?? null;
  }, [contact]);
  useEffect(() => () => void (contactsState.selected = null), []);
  // The buttons' commands read the contact on screen from contactsState, which the effect above
  // fills in after this render: re-render once it has, so no button keeps a stale answer.
  const onScreen = useSnapshot(contactsState).selected?.id === contact?.id;

  if (query.isPending) return <p className="empty-state" role="status">{t('list.loading')}</p>;
  if (!contact) {
    return (
      <div className="empty-state" role="alert">
        <p>{t('detail.notFound')}</p>
      </div>
    );
  }
  const name = contact.name || t('noName');
  const personal = contact.source === 'personal';
  const birthday = contact.birthday
    ? new Intl.DateTimeFormat(i18n.language, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(contact.birthday.year, contact.birthday.month - 1, contact.birthday.day))
    : null;
  return (
    <article className="contacts-detail" aria-labelledby="contacts-detail-heading">
      <Button className="btn contacts-back" onPress={onBack}>
        <span aria-hidden="true">←</span> {t('detail.back')}
      </Button>
      <header className="contacts-detail-head">
        <Avatar href={contact.avatar_href} name={name} />
        <div>
          <h2 id="contacts-detail-heading" ref={headingRef} tabIndex={-1}>
            {name}
          </h2>
          <p className="contacts-muted">
            {[contact.title, contact.company !== name ? contact.company : '', t(`source.${contact.source}`)].filter(Boolean).join(' · ')}
            {contact.is_current_user && ` · ${t('detail.you')}`}
          </p>
        </div>
        {!contact.is_current_user && (
          <Button
            className="btn icon contacts-fav"
            aria-pressed={contact.favorite}
            aria-label={t('favorite.toggle', { name })}
            onPress={() => void kernel.run('contacts.favorite', { id: contact.id }, 'button')}
          >
            <span aria-hidden="true">{contact.favorite ? '★' : '☆'}</span>
          </Button>
        )}
        {/* The own contact never gets an actions menu (no Edit or Delete): its one action is a plain button. */}
        {onScreen && contact.is_current_user && <CommandButton id="contacts.editProfile" />}
        {/* The own photo is the profile's; plain buttons, as the own contact has no actions menu. */}
        {onScreen && contact.is_current_user && (
          <Button className="btn" onPress={() => onEdit('AVATAR')}>
            {t('form.changePhoto')}
          </Button>
        )}
        {onScreen && contact.is_current_user && contact.avatar_href && (
          <Button className="btn" onPress={() => void removeAvatar(kernel, contact.id).catch(() => undefined)}>
            {t('form.removePhoto')}
          </Button>
        )}
        {/* Shown to account owners and administrators only (the command's `when`). */}
        {onScreen && contact.source === 'User' && !contact.is_current_user && <CommandButton id="contacts.editUser" />}
        {/* Only personal contacts get Edit and Delete; the own contact has no actions menu. */}
        {personal && !contact.is_current_user && (
          <MenuTrigger>
            <Button className="btn" aria-label={t('detail.actions', { name })}>
              {t('detail.more')} <span aria-hidden="true">▾</span>
            </Button>
            <Popover className="popover">
              <Menu
                className="menu"
                onAction={(key) => {
                  if (key === 'edit') onEdit('EDIT');
                  else if (key === 'phone') onEdit('ADD_PHONE');
                  else if (key === 'avatar') onEdit('AVATAR');
                  else if (key === 'removeAvatar') void removeAvatar(kernel, contact.id).catch(() => undefined);
                  else if (key === 'delete') void kernel.run('contacts.delete', { ids: [contact.id] }, 'button');
                }}
              >
                <MenuItem id="edit" className="menu-item">{t('commands.edit')}</MenuItem>
                <MenuItem id="phone" className="menu-item">{t('form.addPhone')}</MenuItem>
                <MenuItem id="avatar" className="menu-item">{t('form.changePhoto')}</MenuItem>
                {contact.avatar_href ? <MenuItem id="removeAvatar" className="menu-item">{t('form.removePhoto')}</MenuItem> : null}
                <MenuItem id="delete" className="menu-item danger">{t('commands.delete')}</MenuItem>
              </Menu>
            </Popover>
          </MenuTrigger>
        )}
      </header>

      {!contact.is_current_user && (
        <div className="contacts-actions" role="group" aria-label={t('detail.reach', { name })}>
          <CommandButton id="contacts.call" primary />
          <CommandButton id="contacts.message" />
          <CommandButton id="contacts.text" />
          <CommandButton id="contacts.meeting" />
          {contact.source === 'User' && !contact.is_current_user && <CommandButton id="contacts.meetNow" />}
          {contact.source === 'User' && !contact.is_current_user && <CommandButton id="contacts.notifyAvailable" />}
        </div>
      )}

      <dl className="contacts-facts">
        {contact.phone_numbers.map((p, i) => (
          <div key={`p${i}`}>
            <dt>{p.type === 'custom' && p.custom_type ? p.custom_type : t(`phoneType.${phoneLabel(p)}`)}</dt>
            <dd>
              {p.number ? formatPhone(p.number) : ''}
              {p.extension && p.extension !== p.number ? ` ${t('detail.ext', { ext: p.extension })}` : ''}
            </dd>
          </div>
        ))}
        {contact.emails.map((e, i) => (
          <div key={`e${i}`}>
            <dt>{t('detail.email')}</dt>
            <dd>
              <a href={`mailto:${e.email}`}>{e.email}</a>
            </dd>
          </div>
        ))}
        {contact.addresses.map((a, i) => (
          <div key={`a${i}`}>
            <dt>{t('detail.address')}</dt>
            <dd className="contacts-address">
              {[a.street_1, a.street_2, a.apt_number, [a.city, a.state, [a.zip_code, a.zip_plus_four].filter(Boolean).join('-')].filter(Boolean).join(' '), a.country].filter(Boolean).join('\n')}
            </dd>
          </div>
        ))}
        {contact.instant_messengers.map((m, i) => (
          <div key={`m${i}`}>
            <dt>{m.type}</dt>
            <dd>{m.name}</dd>
          </div>
        ))}
        {birthday && (
          <div>
            <dt>{t('detail.birthday')}</dt>
            <dd>{birthday}</dd>
          </div>
        )}
        {contact.role_name && (
          <div>
            <dt>{t('detail.role')}</dt>
            <dd>{t(`roles.${contact.role_id}`, { defaultValue: contact.role_name })}</dd>
          </div>
        )}
        {contact.notes && (
          <div>
            <dt>{t('detail.notes')}</dt>
            <dd className="contacts-notes">{contact.notes}</dd>
          </div>
        )}
      </dl>
      <CopyLink id={contact.id} />
    </article>
  );
}
