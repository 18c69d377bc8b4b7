import { useEffect, useRef, useState } from 'react';
import {
  Button,
  Checkbox,
  CheckboxGroup,
  Input,
  Label,
  SearchField,
  TextField,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { isoDay, parseIsoDay, typesOf, typesToSearch, type HistoryFilter, type HistorySearch, type HistoryView } from '../filters';

const VIEWS: readonly HistoryView[] = ['recents', 'missed'];

export const TERM_DEBOUNCE_MS = 250;
/** Typing a year into a date field passes through 0002, 0020, 0202…: wait for the user to pause. */
const DATE_DEBOUNCE_MS = 600;

export type SearchChange = (patch: Partial<HistorySearch>, opts?: { replace?: boolean }) => void;

/**
 * A text value edited locally and committed after a pause; an outside change (palette, back
 * button) replaces it unless the user is mid-edit.
 */
function useDebounced(external: string, commit: (value: string) => void, delay: number) {
  const [value, setValue] = useState(external);
  const pending = useRef(false);
  const commitRef = useRef(commit);
  useEffect(() => {
    commitRef.current = commit;
  });
  useEffect(() => {
    if (!pending.current) setValue(external);
  }, [external]);
  useEffect(() => {
    if (!pending.current) return;
    const timer = setTimeout(() => {
      pending.current = false;
      commitRef.current(value);
    }, delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  const change = (next: string) => {
    pending.current = true;
    setValue(next);
  };
  const flush = () => {
    if (!pending.current) return;
    pending.current = false;
    commitRef.current(value);
  };
  return { value, change, flush };
}

const TYPE_KEYS = ['incoming', 'outgoing', 'missed'] as const;

function DateInput({ label, value, min, max, onCommit }: { label: string; value: string; min?: string; max?: string; onCommit: (day: string | undefined) => void }) {
  const field = useDebounced(value, (v) => {
    // An unfinished or implausible date is not sent; the field keeps what the user typed.
    const day = parseIsoDay(v);
    if (v === '') onCommit(undefined);
    else if (day && day.getFullYear() >= 1970) onCommit(v);
  }, DATE_DEBOUNCE_MS);
  return (
    <TextField className="field history-date" type="date" value={field.value} onChange={field.change} onBlur={field.flush}>
      <Label>{label}</Label>
      <Input className="input" min={min} max={max} onKeyDown={(e) => e.key === 'Enter' && field.flush()} />
    </TextField>
  );
}

export function HistoryFilterBar({ search, filter, onChange }: { search: HistorySearch; filter: HistoryFilter; onChange: SearchChange }) {
  const { t } = useTranslation('history');
  const term = useDebounced(search.term ?? '', (v) => onChange({ term: v.trim() ? v : undefined }, { replace: true }), TERM_DEBOUNCE_MS);
  const today = isoDay(new Date());
  const types = typesOf(search);

  const onView = (view: HistoryView) => {
    if (view !== search.filter) onChange({ filter: view });
  };

  const onTypes = (values: string[]) => {
    const chosen = { incoming: values.includes('incoming'), outgoing: values.includes('outgoing'), missed: values.includes('missed') };
    onChange(typesToSearch(chosen), { replace: true });
  };

  return (
    <div className="filter-bar history-filter-bar" role="group" aria-label={t('filters.label')}>
      {/*
        Two native radio buttons: the browser gives the group its arrow keys and its one tab stop.
        React Aria's ToggleButtonGroup did the same with its toolbar and focus scope, 5.7 kB of the
        first screen's budget (issue 17).
      */}
      <div className="history-views" role="radiogroup" aria-label={t('views.label')}>
        {VIEWS.map((view) => (
          <label key={view} className="btn history-view" data-selected={search.filter === view || undefined}>
            <input type="radio" className="visually-hidden" name="history-view" value={view} checked={search.filter === view} onChange={() => onView(view)} />
            {t(`views.${view}`)}
          </label>
        ))}
      </div>

      <SearchField
        className="field history-search"
        value={term.value}
        onChange={term.change}
        onSubmit={term.flush}
      >
        <Label>{t('filters.search')}</Label>
        <div className="history-search-box">
          <Input className="input" placeholder={t('filters.searchPlaceholder')} />
          {term.value && (
            <Button className="btn icon" aria-label={t('filters.clear')}>
              <span aria-hidden="true">×</span>
            </Button>
          )}
        </div>
      </SearchField>

      <DateInput label={t('filters.from')} value={filter.from} max={filter.to} onCommit={(from) => onChange({ from }, { replace: true })} />
      <DateInput label={t('filters.to')} value={filter.to} min={filter.from} max={today} onCommit={(to) => onChange({ to }, { replace: true })} />

      {search.filter === 'recents' && (
        <CheckboxGroup className="history-types" value={TYPE_KEYS.filter((k) => types[k])} onChange={onTypes}>
          <Label className="history-types-label">{t('filters.types')}</Label>
          <div className="history-types-options">
            {TYPE_KEYS.map((k) => (
              <Checkbox key={k} value={k} className="history-checkbox">
                {({ isSelected }) => (
                  <>
                    <span className="history-checkbox-box" aria-hidden="true">
                      {isSelected ? '✓' : ''}
                    </span>
                    {t(`filters.${k}`)}
                  </>
                )}
              </Checkbox>
            ))}
          </div>
        </CheckboxGroup>
      )}
    </div>
  );
}
