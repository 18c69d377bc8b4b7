import { useMemo, useState } from 'react';
import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover, Tag, TagGroup, TagList, Text } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useKernel, useMaybeService } from '../../../kernel';
import { CONTACTS_PROVIDER, ContactsApi } from '../../../contracts';
import type { FormInvitee } from '../model';

const EMAIL = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/;
const SHOWN = 20;
const idOf = (i: FormInvitee) => (i.kind === 'user' ? `u${i.userId}` : `e${i.email.toLowerCase()}`);

interface Option {
  id: string;
  label: string;
  detail?: string;
  invitee: FormInvitee;
}

/**
 * Invitees: colleagues found by type-ahead among the contacts (the contacts plugin's palette
 * entities, resolved through its ContactsApi), or an e-mail address typed in full (a guest).
 * The chosen ones are a tag list: arrows move, Delete or Backspace removes.
 */
export function InviteePicker({ invitees, onChange }: { invitees: readonly FormInvitee[]; onChange(v: FormInvitee[]): void }) {
  const { t } = useTranslation('meetings');
  const kernel = useKernel();
  const contacts = useMaybeService(ContactsApi);
  const [text, setText] = useState('');
  const chosen = useMemo(() => new Set(invitees.map(idOf)), [invitees]);

  const options = useMemo<Option[]>(() => {
    const needle = text.trim().toLowerCase();
    if (!needle) return [];
    const out: Option[] = [];
    if (EMAIL.test(text.trim())) out.push({ id: `e${needle}`, label: t('modal.inviteEmail', { email: text.trim() }), invitee: { kind: 'email', email: text.trim(), name: text.trim() } });
    const provider = kernel.searchProviders.get(CONTACTS_PROVIDER);
    if (provider && contacts) {
      for (const e of provider.item.items(kernel.snapshot())) {
        if (out.length > SHOWN) break;
        const label = typeof e.label === 'string' ? e.label : '';
        const words = [label, ...(e.keywords ?? []).filter((k: unknown): k is string => typeof k === 'string')].join('\n').toLowerCase();
        if (!words.includes(needle)) continue;
        const c = contacts.resolve(e.id);
        if (!c || c.self) continue;
        const invitee: FormInvitee | null = c.userId ? { kind: 'user', userId: c.userId, name: c.name } : c.email ? { kind: 'email', email: c.email, name: c.name } : null;
        if (!invitee || out.some((o) => o.id === idOf(invitee))) continue;
        out.push({ id: idOf(invitee), label: c.name, detail: c.userId ? t('modal.colleague') : c.email, invitee });
      }
    }
    return out.filter((o) => !chosen.has(o.id));
  }, [text, kernel, contacts, chosen, t]);

  const add = (id: string | number | null) => {
    const o = options.find((x) => x.id === id);
    if (!o) return;
    onChange([...invitees, o.invitee]);
    setText('');
  };

  return (
    <div className="field mt-invitees-field">
      <ComboBox className="mt-combo" inputValue={text} onInputChange={setText} onSelectionChange={add} items={options} menuTrigger="input" allowsEmptyCollection>
        <Label>{t('modal.invitees')}</Label>
        <Input className="input" />
        <Text slot="description" className="muted">
          {t('modal.inviteesHint')}
        </Text>
        <Popover className="popover">
          <ListBox className="menu" renderEmptyState={() => <div className="menu-item muted">{t('modal.noOne')}</div>}>
            {(o: Option) => (
              <ListBoxItem id={o.id} textValue={o.label} className="menu-item">
                {o.label}
                {o.detail && <span className="muted"> · {o.detail}</span>}
              </ListBoxItem>
            )}
          </ListBox>
        </Popover>
      </ComboBox>
      {invitees.length > 0 && (
        <TagGroup className="mt-tags" aria-label={t('modal.invited')} onRemove={(keys) => onChange(invitees.filter((i) => !keys.has(idOf(i))))}>
          <TagList items={invitees.map((i) => ({ ...i, id: idOf(i) }))} className="mt-taglist">
            {(i) => (
              <Tag id={i.id} textValue={i.name} className="mt-tag">
                {i.name}
                <Button slot="remove" className="btn small" aria-label={t('modal.remove', { name: i.name })}>
                  ×
                </Button>
              </Tag>
            )}
          </TagList>
        </TagGroup>
      )}
    </div>
  );
}
