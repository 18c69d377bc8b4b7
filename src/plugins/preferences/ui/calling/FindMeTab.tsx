import { parseTime, Time } from '@internationalized/date';
import { useEffect, useId, useRef, useState } from 'react';
import { Button, DateInput, DateSegment, FieldError, Input, Label, Radio, RadioGroup, Switch, TextField, TimeField, type TimeValue } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { FIND_ME_LOCATION_TYPES, FIND_ME_MAX_LOCATIONS, RING_STRATEGIES, TIME_OF_DAY, type RingStrategy } from '../../../../wire/inbound';
import { browserTimeZone, fieldProblems, findMeSentence, fromDraft, move, needsNumber, newLocation, type DraftLocation, type FindMeDraft } from '../../routing';
import { ChoiceSelect } from '../../../../ui/ChoiceSelect';
import { RecordedName } from './RecordedName';
import { RingTimeSelect, RouteForm } from './RouteForm';
import { RulesPending, SaveFailureNotice } from './RulesNotices';
import type { CallingRulesState } from './useCallingRules';

const pad = (n: number) => String(n).padStart(2, '0');
const timeText = (v: TimeValue | null) => (v ? `${pad(v.hour)}:${pad(v.minute)}:${pad(v.second)}` : null);
const timeValue = (s: string | null): Time | null => (s && TIME_OF_DAY.test(s) ? parseTime(s) : null);

/** Find-me: the strategy, the locations in the order they ring, the time window and the two next steps. */
export function FindMeTab({ rules }: { rules: CallingRulesState }) {
  const { findMe } = rules;
  if (rules.load !== 'ready' || !findMe) return <RulesPending load={rules.load} />;
  return <FindMeForm draft={findMe} rules={rules} />;
}

function FindMeForm({ draft, rules }: { draft: FindMeDraft; rules: CallingRulesState }) {
  const { t } = useTranslation('preferences');
  const set = (patch: Partial<FindMeDraft>) => rules.setFindMe({ ...draft, ...patch });
  const problems = rules.problems;
  const problemAt = (path: string) => problems.find((p) => p.path === path)?.message;
  const text = (path: string) => {
    const p = problemAt(path);
    return p ? t(`calling.problems.${p}`) : undefined;
  };
  const listId = useId();
  const announcementsNote = useId();
  // After a move, the moved row's button keeps the focus (the DOM node moved, and may have lost it).
  const [focusAfterMove, setFocusAfterMove] = useState<{ key: string; dir: 'up' | 'down' } | null>(null);
  const [announce, setAnnounce] = useState('');
  const rows = useRef(new Map<string, HTMLElement>());
  useEffect(() => {
    if (!focusAfterMove) return;
    const row = rows.current.get(focusAfterMove.key);
    const buttons = row ? [...row.querySelectorAll<HTMLButtonElement>('button[data-move]')] : [];
    const target = buttons.find((b) => b.dataset.move === focusAfterMove.dir && !b.disabled) ?? buttons.find((b) => !b.disabled);
    target?.focus();
    setFocusAfterMove(null);
  }, [focusAfterMove]);

  const setLocation = (i: number, patch: Partial<DraftLocation>) => set({ locations: draft.locations.map((l, j) => (j === i ? { ...l, ...patch } : l)) });
  const moveLocation = (i: number, by: -1 | 1) => {
    const l = draft.locations[i]!;
    set({ locations: move(draft.locations, i, by) });
    setAnnounce(t('calling.findMe.moved', { name: locationName(l), position: i + by + 1 }));
    setFocusAfterMove({ key: l.key, dir: by < 0 ? 'up' : 'down' });
  };
  const locationName = (l: DraftLocation) => l.value?.trim() || t(`calling.findMe.types.${l.type}`);
  const windowOn = draft.startTime !== null || draft.endTime !== null;

  return (
    <div className="prefs-section">
      <p className="prefs-hint">{t('calling.findMe.hint')}</p>
      <RadioGroup className="prefs-group" value={draft.ring_strategy} onChange={(v) => set({ ring_strategy: v as RingStrategy })}>
        <Label className="prefs-label">{t('calling.findMe.strategy')}</Label>
        <div className="prefs-options">
          {RING_STRATEGIES.map((s) => (
            <Radio key={s} value={s} className="prefs-radio">
              {t(`calling.findMe.strategies.${s}`)}
            </Radio>
          ))}
        </div>
      </RadioGroup>

      <section className="prefs-section" aria-labelledby={listId}>
        <h3 id={listId}>{t('calling.findMe.locations')}</h3>
        {draft.locations.length === 0 && <p className="prefs-hint">{t('calling.findMe.noLocations')}</p>}
        {text('locations') && <p className="prefs-error">{text('locations')}</p>}
        <ol className="prefs-locations">
          {draft.locations.map((l, i) => (
            <li
              key={l.key}
              ref={(el) => {
                if (el) rows.current.set(l.key, el);
                else rows.current.delete(l.key);
              }}
            >
              <fieldset className="prefs-group prefs-route" aria-label={t('calling.findMe.locationOf', { position: i + 1, name: locationName(l) })}>
                <div className="prefs-row">
                  <ChoiceSelect
                    buttonClassName="prefs-select"
                    className="field"
                    label={t('calling.findMe.type')}
                    options={FIND_ME_LOCATION_TYPES.map((x) => ({ id: x, text: t(`calling.findMe.types.${x}`) }))}
                    selectedKey={l.type}
                    onChange={(type) => setLocation(i, { type })}
                  />
                  <TextField className="field" value={l.value ?? ''} onChange={(v) => setLocation(i, { value: v === '' ? null : v })} maxLength={100}>
                    <Label>{t('calling.findMe.label')}</Label>
                    <Input className="input" />
                  </TextField>
                  {needsNumber(l.type) && (
                    <TextField
                      className="field"
                      value={l.number ?? ''}
                      onChange={(v) => setLocation(i, { number: v === '' ? null : v })}
                      inputMode="tel"
                      isInvalid={!!problemAt(`locations.${i}.number`)}
                      validationBehavior="aria"
                    >
                      <Label>{t('calling.route.number')}</Label>
                      <Input className="input" />
                      <FieldError className="field-error">{text(`locations.${i}.number`)}</FieldError>
                    </TextField>
                  )}
                  <RingTimeSelect value={l.ringTime} onChange={(ringTime) => setLocation(i, { ringTime })} error={text(`locations.${i}.ringTime`)} />
                </div>
                <div className="prefs-row">
                  <Switch className="prefs-switch" isSelected={l.isActive} onChange={(isActive) => setLocation(i, { isActive })}>
                    <span className="prefs-switch-track" aria-hidden="true" />
                    {t('calling.findMe.active')}
                  </Switch>
                  <Button className="btn" data-move="up" isDisabled={i === 0} onPress={() => moveLocation(i, -1)}>
                    {t('calling.findMe.moveUp')}
                  </Button>
                  <Button className="btn" data-move="down" isDisabled={i === draft.locations.length - 1} onPress={() => moveLocation(i, 1)}>
                    {t('calling.findMe.moveDown')}
                  </Button>
                  <Button
                    className="btn danger"
                    onPress={() => {
                      set({ locations: draft.locations.filter((_, j) => j !== i) });
                      setAnnounce(t('calling.findMe.removed', { name: locationName(l) }));
                    }}
                  >
                    {t('calling.findMe.remove')}
                  </Button>
                </div>
              </fieldset>
            </li>
          ))}
        </ol>
        <div>
          <Button className="btn" isDisabled={draft.locations.length >= FIND_ME_MAX_LOCATIONS} onPress={() => set({ locations: [...draft.locations, newLocation()] })}>
            {t('calling.findMe.add')}
          </Button>
        </div>
        <p role="status" className="visually-hidden">
          {announce}
        </p>
      </section>

      <Switch className="prefs-switch" isSelected={draft.recordName} aria-describedby={announcementsNote} onChange={(recordName) => set({ recordName })}>
        <span className="prefs-switch-track" aria-hidden="true" />
        {t('calling.findMe.recordName')}
      </Switch>
      {draft.recordName && <RecordedName />}
      <Switch className="prefs-switch" isSelected={draft.announceBetween} aria-describedby={announcementsNote} onChange={(announceBetween) => set({ announceBetween })}>
        <span className="prefs-switch-track" aria-hidden="true" />
        {t('calling.findMe.announceBetween')}
      </Switch>
      <p id={announcementsNote} className="prefs-status">
        {t('calling.findMe.announcementsHint')}
      </p>

      <Switch className="prefs-switch" isSelected={windowOn} onChange={(on) => set(on ? { startTime: '09:00:00', endTime: '17:00:00' } : { startTime: null, endTime: null })}>
        <span className="prefs-switch-track" aria-hidden="true" />
        {t('calling.findMe.window')}
      </Switch>
      {windowOn && (
        <div className="prefs-row">
          <TimeField
            className="field"
            granularity="second"
            hourCycle={24}
            value={timeValue(draft.startTime)}
            onChange={(v) => set({ startTime: timeText(v) })}
            isInvalid={!!problemAt('startTime')}
            validationBehavior="aria"
          >
            <Label>{t('calling.findMe.start')}</Label>
            <DateInput className="prefs-time">{(segment) => <DateSegment segment={segment} className="prefs-time-segment" />}</DateInput>
            <FieldError className="field-error">{text('startTime')}</FieldError>
          </TimeField>
          <TimeField
            className="field"
            granularity="second"
            hourCycle={24}
            value={timeValue(draft.endTime)}
            onChange={(v) => set({ endTime: timeText(v) })}
            isInvalid={!!problemAt('endTime')}
            validationBehavior="aria"
          >
            <Label>{t('calling.findMe.end')}</Label>
            <DateInput className="prefs-time">{(segment) => <DateSegment segment={segment} className="prefs-time-segment" />}</DateInput>
            <FieldError className="field-error">{text('endTime')}</FieldError>
          </TimeField>
        </div>
      )}
      {windowOn && <p className="prefs-status">{t('calling.findMe.windowZone', { zone: draft.timeZone ?? browserTimeZone() ?? 'UTC' })}</p>}
      {windowOn && (
        <RouteForm
          key={`after-${rules.revision}`}
          slot="afterHoursNextStep"
          route={draft.afterHoursNextStep}
          onChange={(r) => set({ afterHoursNextStep: r })}
          types={rules.types}
          selfId={rules.selfId}
          problems={fieldProblems(problems, 'afterHoursNextStep')}
          exclude={['findme']}
        />
      )}
      <RouteForm
        key={`nobody-${rules.revision}`}
        slot="simultaneous_next_step"
        route={draft.simultaneous_next_step}
        onChange={(r) => set({ simultaneous_next_step: r })}
        types={rules.types}
        selfId={rules.selfId}
        problems={fieldProblems(problems, 'simultaneous_next_step')}
        exclude={['findme']}
      />
      <p className="prefs-summary">{findMeSentence(fromDraft(draft), rules.types, rules.selfId, t)}</p>
      <SaveFailureNotice failure={rules.failure} />
    </div>
  );
}
