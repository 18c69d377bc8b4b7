import { parseDate, type CalendarDate } from '@internationalized/date';
import { useMemo, useState, type KeyboardEvent } from 'react';
import {
  Button,
  Calendar,
  CalendarCell,
  CalendarGrid,
  Checkbox,
  CheckboxGroup,
  DateInput,
  DatePicker,
  DateSegment,
  Dialog,
  FieldError,
  Group,
  Heading,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Modal,
  ModalOverlay,
  Popover,
  Select,
  SelectValue,
  Tab,
  TabList,
  TabPanel,
  Tabs,
  Text,
  TextArea,
  TextField,
  type Key,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Notifications, useKernel } from '../../../kernel';
import type { Meeting } from '../../../wire/meetings';
import { closeModal, saveMeetingForm } from '../meeting';
import { formOf, newForm, withEndDateChecked, type FormField, type MeetingForm, type ModalTab, type Occurs, type RuleError } from '../model';
import { meetingsState, type ModalState } from '../state';
import { InviteePicker } from './InviteePicker';

const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6];

function initialForm(modal: ModalState, editing: Meeting | undefined): MeetingForm {
  if (modal.seed?.form) return modal.seed.form;
  if (editing) return formOf(editing, zone());
  return newForm(Date.now(), zone(), modal.seed?.invitees ?? []);
}

/** The create/edit meeting modal: Start (instant) and Schedule tabs, or Edit. Ctrl+Enter saves; Enter does not. */
export function MeetingModal() {
  const snap = useSnapshot(meetingsState);
  const modal = snap.modal as ModalState;
  const editing = modal.editingId !== null ? ((snap.items as Meeting[] | null)?.find((m) => m.id === modal.editingId && m.key === snap.selectedKey) ?? (snap.items as Meeting[] | null)?.find((m) => m.id === modal.editingId)) : undefined;
  // A fresh form each time the modal opens (the key is the modal object itself).
  return <ModalBody key={`${modal.tab}:${modal.editingId}`} modal={modal} editing={editing} />;
}

function ModalBody({ modal, editing }: { modal: ModalState; editing: Meeting | undefined }) {
  const { t, i18n } = useTranslation('meetings');
  const kernel = useKernel();
  const [tab, setTab] = useState<ModalTab>(modal.tab);
  const [form, setForm] = useState<MeetingForm>(() => initialForm(modal, editing));
  const [errors, setErrors] = useState<Partial<Record<FormField, RuleError>>>({});
  const set = <K extends keyof MeetingForm>(k: K, v: MeetingForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const isEdit = modal.editingId !== null;

  const close = () => closeModal(kernel);

  const save = async () => {
    const checked = await saveMeetingForm(kernel, tab, modal.editingId, form, Date.now(), zone());
    if (checked.input) return;
    setForm(checked.form);
    setErrors(checked.errors);
    const first = Object.values(checked.errors)[0];
    if (first) kernel.get(Notifications).announce(t(`errors.${first}`), 'assertive');
  };

  // In the capture phase: a focused button or select (React Aria presses on Enter) must not take Ctrl+Enter first.
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      e.stopPropagation();
      void save();
    }
  };
  const err = (f: FormField) => (errors[f] ? t(`errors.${errors[f]}`) : undefined);

  const times = (
    <>
      <div className="mt-row2">
        <DateField label={t('modal.startDate')} value={form.startDate} onChange={(v) => setForm((f) => withEndDateChecked({ ...f, startDate: v }, zone()))} />
        <TextField className="field" value={form.startTime} onChange={(v) => set('startTime', v)} isInvalid={!!errors.startTime}>
          <Label>{t('modal.startTime')}</Label>
          <Input className="input" />
          <Text slot="description" className="muted">
            {t('modal.timeHint')}
          </Text>
          <FieldError className="field-error">{err('startTime')}</FieldError>
        </TextField>
      </div>
      <div className="mt-row2">
        <DateField label={t('modal.endDate')} value={form.endDate} onChange={(v) => setForm((f) => withEndDateChecked({ ...f, endDate: v }, zone()))} />
        <TextField className="field" value={form.endTime} onChange={(v) => set('endTime', v)} isInvalid={!!errors.endTime || !!errors.end}>
          <Label>{t('modal.endTime')}</Label>
          <Input className="input" />
          <FieldError className="field-error">{err('endTime') ?? err('end')}</FieldError>
        </TextField>
      </div>
      <Select className="field" selectedKey={String(form.occurs)} onSelectionChange={(k: Key | null) => set('occurs', Number(k ?? 0) as Occurs)}>
        <Label>{t('modal.repeat')}</Label>
        <Button className="btn mt-select">
          <SelectValue />
          <span aria-hidden="true">▾</span>
        </Button>
        <Popover className="popover">
          <ListBox className="menu">
            {[0, 1, 2, 3].map((o) => (
              <ListBoxItem key={o} id={String(o)} className="menu-item">
                {t(`modal.occurs.${o}`)}
              </ListBoxItem>
            ))}
          </ListBox>
        </Popover>
      </Select>
      {form.occurs !== 0 && (
        <CheckboxGroup
          className="field mt-days"
          value={WEEKDAYS.filter((i) => form.days[i]).map(String)}
          onChange={(v) => set('days', WEEKDAYS.map((i) => v.includes(String(i))))}
          isInvalid={!!errors.days}
        >
          <Label>{t('modal.days')}</Label>
          <div className="mt-day-boxes">
            {WEEKDAYS.map((i) => (
              <Checkbox key={i} value={String(i)} className="checkbox">
                <span className="box" aria-hidden="true" />
                {new Intl.DateTimeFormat(i18n.language, { weekday: 'short', timeZone: 'UTC' }).format(Date.UTC(2024, 0, 1 + i))}
              </Checkbox>
            ))}
          </div>
          <FieldError className="field-error">{err('days')}</FieldError>
        </CheckboxGroup>
      )}
    </>
  );

  const fields = (withTimes: boolean) => (
    <div className="mt-form">
      <TextField className="field" value={form.name} onChange={(v) => set('name', v)} isInvalid={!!errors.name} autoFocus>
        <Label>{t('modal.name')}</Label>
        <Input className="input" />
        <FieldError className="field-error">{err('name')}</FieldError>
      </TextField>
      {withTimes && times}
      <InviteePicker invitees={form.invitees} onChange={(v) => set('invitees', v)} />
      {withTimes && (
        <>
          <TextField className="field" value={form.description} onChange={(v) => set('description', v)}>
            <Label>{t('modal.description')}</Label>
            <TextArea className="input" rows={3} />
          </TextField>
          <TextField className="field" value={form.bookmarkText} onChange={(v) => set('bookmarkText', v)} isInvalid={!!errors.bookmarks}>
            <Label>{t('modal.bookmarks')}</Label>
            <Input className="input" />
            <Text slot="description" className="muted">
              {form.bookmarks.length ? t('modal.bookmarksKept', { list: form.bookmarks.join(' ') }) : t('modal.bookmarksHint')}
            </Text>
            <FieldError className="field-error">{err('bookmarks')}</FieldError>
          </TextField>
          {form.bookmarks.length > 0 && (
            <Button className="btn small" onPress={() => set('bookmarks', [])}>
              {t('modal.clearBookmarks')}
            </Button>
          )}
        </>
      )}
      <div className="mt-row2">
        <TextField className="field" value={form.pin} onChange={(v) => set('pin', v)} isInvalid={!!errors.pin} inputMode="numeric" maxLength={8}>
          <Label>{t('modal.pin')}</Label>
          <Input className="input" autoComplete="off" />
          <FieldError className="field-error">{err('pin')}</FieldError>
        </TextField>
        <TextField className="field" value={form.password} onChange={(v) => set('password', v)} isInvalid={!!errors.password} inputMode="numeric" maxLength={8}>
          <Label>{t('modal.password')}</Label>
          <Input className="input" autoComplete="off" />
          <FieldError className="field-error">{err('password')}</FieldError>
        </TextField>
      </div>
      <Checkbox className="checkbox" isSelected={form.waitingRoom} onChange={(v) => set('waitingRoom', v)}>
        <span className="box" aria-hidden="true" />
        {t('modal.waitingRoom')}
      </Checkbox>
    </div>
  );

  return (
    <ModalOverlay isOpen onOpenChange={(o) => !o && close()} isDismissable className="modal-overlay">
      <Modal className="modal wide">
        <Dialog className="dialog mt-modal">
          <div onKeyDownCapture={onKeyDown}>
          <Heading slot="title">{isEdit ? t('modal.editTitle') : t('modal.newTitle')}</Heading>
          {isEdit ? (
            fields(true)
          ) : (
            <Tabs selectedKey={tab} onSelectionChange={(k) => setTab(k as ModalTab)}>
              <TabList className="mt-tabs" aria-label={t('modal.tabs')}>
                <Tab id="start" className="mt-tab">
                  {t('modal.start')}
                </Tab>
                <Tab id="schedule" className="mt-tab">
                  {t('modal.schedule')}
                </Tab>
              </TabList>
              <TabPanel id="start">
                <p className="muted">{t('modal.startHelp')}</p>
                {fields(false)}
              </TabPanel>
              <TabPanel id="schedule">{fields(true)}</TabPanel>
            </Tabs>
          )}
          <p className="muted mt-hint">{t('modal.saveHint')}</p>
          <div className="dialog-actions">
            <Button className="btn" onPress={close}>
              {t('modal.cancel')}
            </Button>
            <Button className="btn primary" onPress={() => void save()}>
              {isEdit ? t('modal.save') : tab === 'start' ? t('modal.startNow') : t('modal.scheduleIt')}
            </Button>
          </div>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

/** A localised date picker (React Aria): typed segment by segment, or picked in the calendar. */
function DateField({ label, value, onChange }: { label: string; value: string; onChange(v: string): void }) {
  const { t } = useTranslation('meetings');
  const parsed = useMemo<CalendarDate | null>(() => {
    try {
      return parseDate(value);
    } catch {
      return null;
    }
  }, [value]);
  return (
    <DatePicker className="field mt-date" value={parsed} onChange={(d) => d && onChange(d.toString())}>
      <Label>{label}</Label>
      <Group className="input mt-date-group">
        <DateInput className="mt-date-input">{(segment) => <DateSegment segment={segment} className="mt-segment" />}</DateInput>
        <Button className="btn small" aria-label={t('modal.pickDate')}>
          ▾
        </Button>
      </Group>
      <Popover className="popover">
        <Dialog className="dialog" aria-label={label}>
          <Calendar>
            <header className="mt-cal-header">
              <Button slot="previous" className="btn small">
                ‹
              </Button>
              <Heading />
              <Button slot="next" className="btn small">
                ›
              </Button>
            </header>
            <CalendarGrid>{(date) => <CalendarCell date={date} className="mt-cal-cell" />}</CalendarGrid>
          </Calendar>
        </Dialog>
      </Popover>
    </DatePicker>
  );
}
