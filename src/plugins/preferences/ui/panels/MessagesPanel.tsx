import { useEffect, useState } from 'react';
import { Button, Switch } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Preferences, Session, useKernel, useService } from '../../../../kernel';
import { desktopNotificationsAllowed, NOTICE_KINDS, NOTICES_OFF_PREFERENCE, type NoticeKind } from '../../../../kernel/lazy';
import { CUTOFF_KINDS, type CutoffKind } from '../../../../wire/texts';
import { loadUcSettings, saveUcSettings } from '../../api';
import { log } from '../../log';
import { cutoffChoices, cutoffDraft, cutoffsToSave, isNever, noticeSwitches, noticesOffValue, type CutoffDraft, type NoticeSwitches } from '../../messages';
import { ChoiceSelect } from '../../../../ui/ChoiceSelect';
import { PanelForm } from '../PanelForm';
import { useSave } from '../useSave';

const CUTOFF_PREFERENCE = 'uc-messages-cut-off';
// Messaging reads this one (true: sound off); saved here it is followed there at once.
const SOUND_OFF_PREFERENCE = 'uc-chat-sound-off';
const UC_SWITCHES = ['share_presence', 'email_notification', 'sms_notification'] as const;
type UcSwitch = (typeof UC_SWITCHES)[number];

interface Messages {
  cutoffs: CutoffDraft;
  sound: boolean;
  notices: NoticeSwitches;
  uc: Record<UcSwitch, boolean>;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Message cut-offs, chat sound, desktop notifications per kind, and three UC settings. */
export function MessagesPanel() {
  const { t } = useTranslation('preferences');
  const kernel = useKernel();
  const prefs = useService(Preferences);
  const [saved, setSaved] = useState<Messages | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    Promise.all([prefs.get(CUTOFF_PREFERENCE), prefs.get<boolean>(SOUND_OFF_PREFERENCE), prefs.get(NOTICES_OFF_PREFERENCE), loadUcSettings(kernel)]).then(
      ([cutoffs, soundOff, noticesOff, settings]) =>
        live &&
        setSaved({
          cutoffs: cutoffDraft(cutoffs),
          sound: soundOff !== true,
          notices: noticeSwitches(noticesOff),
          uc: { share_presence: settings.share_presence, email_notification: settings.email_notification, sms_notification: settings.sms_notification },
        }),
      (err: unknown) => (log.error('messages settings', err), live && setFailed(true)),
    );
    return () => void (live = false);
  }, [kernel, prefs]);
  if (failed) return <p role="alert" className="prefs-error">{t('loadFailed')}</p>;
  if (!saved) return <p className="prefs-status">{t('loading')}</p>;
  return <MessagesForm saved={saved} onSaved={setSaved} />;
}

function MessagesForm({ saved, onSaved }: { saved: Messages; onSaved: (m: Messages) => void }) {
  const { t } = useTranslation('preferences');
  const kernel = useKernel();
  const prefs = useService(Preferences);
  const emailConfigured = useService(Session).config.email_configured;
  const [draft, setDraft] = useState(saved);
  const cutoffs = cutoffsToSave(draft.cutoffs);
  const dirty = !same(draft, saved);
  const edit = (f: (d: Messages) => Messages) => (setDraft(f), setStatus(null));

  const { form, setStatus } = useSave('messages', {
    dirty,
    // The specification's rule: the four cut-offs go together or not at all.
    ready: cutoffs !== null,
    discard: () => setDraft(saved),
    logAs: 'saving messages settings',
    store: async () => {
      if (!same(draft.cutoffs, saved.cutoffs)) await prefs.set(CUTOFF_PREFERENCE, cutoffs!);
      if (draft.sound !== saved.sound) await prefs.set(SOUND_OFF_PREFERENCE, !draft.sound);
      if (!same(draft.notices, saved.notices)) await prefs.set(NOTICES_OFF_PREFERENCE, noticesOffValue(draft.notices));
      const ucPatch = Object.fromEntries(UC_SWITCHES.filter((k) => draft.uc[k] !== saved.uc[k]).map((k) => [k, draft.uc[k]]));
      if (Object.keys(ucPatch).length > 0) await saveUcSettings(kernel, ucPatch);
      onSaved(draft);
    },
  });

  return (
    <PanelForm {...form}>
      <fieldset className="prefs-group">
        <legend className="prefs-label">{t('messages.cutoffs')}</legend>
        <p className="prefs-hint">{t('messages.cutoffsHint')}</p>
        {CUTOFF_KINDS.map((kind) => (
          <CutoffSelect key={kind} kind={kind} value={draft.cutoffs[kind]} onChange={(days) => edit((d) => ({ ...d, cutoffs: { ...d.cutoffs, [kind]: days } }))} />
        ))}
      </fieldset>

      <fieldset className="prefs-group">
        <legend className="prefs-label">{t('messages.sound')}</legend>
        <Switch className="prefs-switch" isSelected={draft.sound} onChange={(v) => edit((d) => ({ ...d, sound: v }))}>
          <span className="prefs-switch-track" aria-hidden="true" />
          {t('messages.chatSound')}
        </Switch>
      </fieldset>

      <fieldset className="prefs-group">
        <legend className="prefs-label">{t('messages.desktop')}</legend>
        <NotificationPermission />
        {NOTICE_KINDS.map((kind: NoticeKind) => (
          <Switch key={kind} className="prefs-switch" isSelected={draft.notices[kind]} onChange={(v) => edit((d) => ({ ...d, notices: { ...d.notices, [kind]: v } }))}>
            <span className="prefs-switch-track" aria-hidden="true" />
            {t(`messages.notify.${kind}`)}
          </Switch>
        ))}
      </fieldset>

      <fieldset className="prefs-group">
        <legend className="prefs-label">{t('messages.other')}</legend>
        <Switch className="prefs-switch" isSelected={draft.uc.share_presence} onChange={(v) => edit((d) => ({ ...d, uc: { ...d.uc, share_presence: v } }))}>
          <span className="prefs-switch-track" aria-hidden="true" />
          {t('messages.sharePresence')}
        </Switch>
        <Switch
          className="prefs-switch"
          isSelected={draft.uc.email_notification}
          // Off stays possible, so a user can stop what the server could not send anyway.
          isDisabled={!emailConfigured && !draft.uc.email_notification}
          aria-describedby={emailConfigured ? undefined : 'prefs-no-email'}
          onChange={(v) => edit((d) => ({ ...d, uc: { ...d.uc, email_notification: v } }))}
        >
          <span className="prefs-switch-track" aria-hidden="true" />
          {t('messages.voicemailEmail')}
        </Switch>
        {!emailConfigured && (
          <p id="prefs-no-email" className="prefs-hint">
            {t('messages.noEmail')}
          </p>
        )}
        <Switch className="prefs-switch" isSelected={draft.uc.sms_notification} onChange={(v) => edit((d) => ({ ...d, uc: { ...d.uc, sms_notification: v } }))}>
          <span className="prefs-switch-track" aria-hidden="true" />
          {t('messages.voicemailText')}
        </Switch>
      </fieldset>
    </PanelForm>
  );
}

// Named periods need no plural forms in any language; an odd saved value shows as "Days: 45".
const CHOICE_KEYS: Record<number, string> = { 7: 'week', 30: 'month', 90: 'months3', 180: 'months6', 365: 'year' };

function CutoffSelect({ kind, value, onChange }: { kind: CutoffKind; value: number | null; onChange: (days: number) => void }) {
  const { t } = useTranslation('preferences');
  const label = (days: number) => (isNever(days) ? t('messages.never') : CHOICE_KEYS[days] ? t(`messages.choice.${CHOICE_KEYS[days]}`) : t('messages.customDays', { n: days }));
  return (
    <ChoiceSelect
      buttonClassName="prefs-select"
      className="prefs-field"
      label={t(`messages.kinds.${kind}`)}
      options={cutoffChoices(value).map((days) => ({ id: days, text: label(days) }))}
      selectedKey={value ?? null}
      onChange={onChange}
      isRequired
    />
  );
}

/** The product's one notification permission, asked by telephony's command when this user has it. */
function NotificationPermission() {
  const { t } = useTranslation('preferences');
  const kernel = useKernel();
  const supported = typeof Notification === 'function';
  const [permission, setPermission] = useState(supported ? Notification.permission : 'denied');
  if (!supported) return <p className="prefs-hint">{t('messages.permission.unsupported')}</p>;
  if (desktopNotificationsAllowed()) return <p className="prefs-hint">{t('messages.permission.granted')}</p>;
  if (permission === 'denied') return <p className="prefs-hint">{t('messages.permission.denied')}</p>;
  if (!kernel.commands.has('telephony.notifications')) return <p className="prefs-hint">{t('messages.permission.off')}</p>;
  return (
    <div className="prefs-row">
      <span className="prefs-hint">{t('messages.permission.off')}</span>
      <Button className="btn" onPress={() => void kernel.run('telephony.notifications', {}, 'button').then(() => setPermission(Notification.permission))}>
        {t('messages.permission.ask')}
      </Button>
    </div>
  );
}
