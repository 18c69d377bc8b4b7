import { useId } from 'react';
import { Button, ComboBox, FieldError, Input, Label, ListBox, ListBoxItem, Popover, Select, SelectValue, Text, TextField, type Key } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { DestinationType } from '../../../../wire/calling';
import { RING_TIMES, type DestinationTypeInfo, type InboundRoute, type RouteProblem } from '../../../../wire/inbound';
import { fieldsFor, routeSentence, withDrop, type RouteField, type RouteSlot } from '../../routing';

const NOT_SET = '__none';

/**
 * One rule: the destination type (every type the server lists; those this deployment cannot route
 * are disabled with why), then only the fields that type needs, and the sentence saying what it does.
 */
export function RouteForm({
  slot,
  route,
  onChange,
  types,
  selfId,
  problems,
  exclude = [],
}: {
  slot: RouteSlot;
  route: InboundRoute;
  onChange: (r: InboundRoute) => void;
  types: readonly DestinationTypeInfo[];
  selfId: string;
  problems: Partial<Record<RouteField, RouteProblem>>;
  /** Types this form does not offer (find-me's own next step cannot be find-me). */
  exclude?: readonly DestinationType[];
}) {
  const { t } = useTranslation('preferences');
  const legendId = useId();
  const fields = fieldsFor(route.drop);
  // What can be chosen first; the rest after, greyed out with why (never offered as working).
  const offered = types.filter((x) => !exclude.includes(x.type));
  const shown = [...offered.filter((x) => x.available), ...offered.filter((x) => !x.available)];
  const problem = (field: RouteField) => (problems[field] ? t(`calling.problems.${problems[field]}`) : undefined);
  const typeName = (type: DestinationType) => t(`calling.types.${type}`);
  const reason = (x: DestinationTypeInfo) => t(`calling.unavailable.${x.type}`, { defaultValue: x.reason ?? '' });
  const options = types.find((x) => x.type === route.drop)?.options ?? [];

  return (
    <fieldset className="prefs-group prefs-route" aria-labelledby={legendId}>
      <legend id={legendId} className="prefs-label">
        {t(`calling.rules.${slot}`)}
      </legend>
      <div className="prefs-row prefs-route-fields">
        <Select
          className="field"
          selectedKey={route.drop ?? NOT_SET}
          onSelectionChange={(k) => k !== null && onChange(withDrop(route, k === NOT_SET ? null : (k as DestinationType)))}
          disabledKeys={shown.filter((x) => !x.available).map((x) => x.type)}
          isInvalid={!!problems.drop}
          validationBehavior="aria"
        >
          <Label>{t('calling.route.destination')}</Label>
          <Button className="prefs-select">
            <SelectValue />
            <span aria-hidden="true">▾</span>
          </Button>
          <FieldError className="field-error">{problem('drop')}</FieldError>
          <Popover className="popover">
            <ListBox className="menu">
              <ListBoxItem id={NOT_SET} className="menu-item" textValue={t('calling.route.notSet')}>
                {t('calling.route.notSet')}
              </ListBoxItem>
              {shown.map((x) => (
                <ListBoxItem key={x.type} id={x.type} className="menu-item" textValue={typeName(x.type)}>
                  <Text slot="label">{typeName(x.type)}</Text>
                  {!x.available && (
                    <Text slot="description" className="prefs-reason">
                      {reason(x)}
                    </Text>
                  )}
                </ListBoxItem>
              ))}
            </ListBox>
          </Popover>
        </Select>
        {fields.list && (
          // Remounted per type: a colleague's text never stays in a group's box.
          <ComboBox
            key={route.drop}
            className="field"
            allowsCustomValue
            defaultInputValue={options.find((o) => o.value === route.value)?.name ?? ''}
            selectedKey={route.value}
            onSelectionChange={(k: Key | null) => onChange({ ...route, value: k === null ? null : String(k) })}
            defaultItems={options}
            isInvalid={!!problems.value}
            validationBehavior="aria"
          >
            <Label>{t(`calling.route.pick.${route.drop}`)}</Label>
            <div className="prefs-combo">
              <Input className="input" />
              <Button className="btn icon" aria-label={t('calling.route.showAll')}>
                ▾
              </Button>
            </div>
            <FieldError className="field-error">{problem('value')}</FieldError>
            <Popover className="popover">
              <ListBox className="menu" renderEmptyState={() => <p className="prefs-hint">{t('calling.route.noMatch')}</p>}>
                {(o: (typeof options)[number]) => (
                  <ListBoxItem id={o.value} className="menu-item" textValue={o.name}>
                    <Text slot="label">{o.name}</Text>
                    {o.number && <Text slot="description">{o.number}</Text>}
                  </ListBoxItem>
                )}
              </ListBox>
            </Popover>
          </ComboBox>
        )}
        {fields.number && (
          <TextField
            className="field"
            value={route.value ?? ''}
            onChange={(v) => onChange({ ...route, value: v === '' ? null : v })}
            inputMode="tel"
            isInvalid={!!problems.value}
            validationBehavior="aria"
          >
            <Label>{t('calling.route.number')}</Label>
            <Input className="input" />
            <FieldError className="field-error">{problem('value')}</FieldError>
          </TextField>
        )}
        {fields.ringTime && <RingTimeSelect value={route.phoneTime} onChange={(s) => onChange({ ...route, phoneTime: s })} error={problem('phoneTime')} />}
      </div>
      {slot === 'routeBusy' && route.drop === null && <p className="prefs-hint">{t('calling.noBusyRoute')}</p>}
      <p className="prefs-summary">{routeSentence(slot, route, types, selfId, t)}</p>
    </fieldset>
  );
}

/** 5…30 s; null until chosen (a phone rule needs one). */
export function RingTimeSelect({ value, onChange, error }: { value: number | null; onChange: (s: number) => void; error?: string }) {
  const { t } = useTranslation('preferences');
  return (
    <Select className="field" selectedKey={value === null ? null : String(value)} onSelectionChange={(k) => k !== null && onChange(Number(k))} isInvalid={!!error} validationBehavior="aria" placeholder={t('calling.route.choose')}>
      <Label>{t('calling.route.ringTime')}</Label>
      <Button className="prefs-select">
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <FieldError className="field-error">{error}</FieldError>
      <Popover className="popover">
        <ListBox className="menu">
          {RING_TIMES.map((s) => (
            <ListBoxItem key={s} id={String(s)} className="menu-item" textValue={t('calling.route.seconds', { value: s })}>
              {t('calling.route.seconds', { value: s })}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </Select>
  );
}
