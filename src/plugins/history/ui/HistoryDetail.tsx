import { useId, type RefObject } from 'react';
import { Button, Label, ProgressBar } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { useCommand } from '../../../kernel';
import { formatDuration, formatFullDateTime, formatPhone } from '../format';
import { TYPE_GLYPH } from './HistoryList';
import { isMissed, type HistoryRecord } from '../model';
import { historyState } from '../state';

/**
 * A button bound to a command: the same object the palette and hotkeys run. When disabled, the
 * reason stays visible next to it instead of hiding in a tooltip.
 */
function CommandButton({ id, primary = false }: { id: string; primary?: boolean }) {
  const { t } = useTranslation('history');
  const bound = useCommand(id);
  const reasonId = useId();
  if (!bound.command || !bound.visible) return null;
  const reason = bound.enablement === true ? null : bound.enablement;
  return (
    <div className="history-action">
      <Button
        className={primary ? 'btn primary' : 'btn'}
        isDisabled={reason !== null}
        aria-describedby={reason ? reasonId : undefined}
        onPress={() => void bound.run({}, 'button')}
      >
        {t(bound.command.titleKey)}
      </Button>
      {reason && (
        <p id={reasonId} className="history-reason">
          {t(reason.reasonKey, reason.values)}
        </p>
      )}
    </div>
  );
}

/** Progress of a CSV export, wherever it was started (button, palette or hotkey). */
export function ExportProgress() {
  const { t } = useTranslation('history');
  const exporting = useSnapshot(historyState).exporting;
  if (!exporting) return null;
  const { loaded, total } = exporting;
  return (
    <ProgressBar
      className="history-progress"
      value={loaded}
      maxValue={Math.max(total ?? 1, 1)}
      isIndeterminate={total === null}
      valueLabel={total === null ? t('export.starting') : t('export.progress', { loaded, total })}
    >
      {({ percentage, valueText }) => (
        <>
          <Label>{t('export.label')}</Label>
          <span className="history-progress-value">{valueText}</span>
          <div className="history-progress-track" aria-hidden="true">
            <div className="history-progress-fill" style={{ inlineSize: `${total === null ? 100 : (percentage ?? 0)}%` }} />
          </div>
        </>
      )}
    </ProgressBar>
  );
}

export interface HistoryDetailProps {
  record: HistoryRecord;
  name: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onBack(): void;
}

export function HistoryDetail({ record, name, headingRef, onBack }: HistoryDetailProps) {
  const { t, i18n } = useTranslation('history');
  const locale = i18n.language;
  const missed = isMissed(record);
  const number = formatPhone(record.phoneNumber);
  return (
    <article className="history-detail" aria-labelledby="history-detail-heading">
      <Button className="btn history-back" onPress={onBack}>
        <span aria-hidden="true">←</span> {t('detail.back')}
      </Button>
      <h2 id="history-detail-heading" ref={headingRef} tabIndex={-1} className="history-detail-title">
        {name}
      </h2>
      <p className={missed ? 'history-kind missed' : 'history-kind'}>
        <span className="history-glyph" aria-hidden="true">
          {TYPE_GLYPH[record.type]}
        </span>{' '}
        {t(`type.${record.type}`)}
      </p>
      <dl className="history-facts">
        <dt>{t('detail.number')}</dt>
        <dd>{number}</dd>
        <dt>{t('detail.direction')}</dt>
        <dd>{t(`direction.${record.direction}`)}</dd>
        <dt>{t('detail.status')}</dt>
        <dd className={missed ? 'missed' : undefined}>{t(record.disposition === 'ANSWERED' ? 'disposition.answered' : 'disposition.unanswered')}</dd>
        <dt>{t('detail.dateTime')}</dt>
        <dd>
          <time dateTime={record.dateTime}>{formatFullDateTime(record.dateTime, locale)}</time>
        </dd>
        <dt>{t('detail.duration')}</dt>
        <dd>
          {record.duration}
          {record.durationSeconds > 0 && <span className="history-muted"> ({formatDuration(record.durationSeconds, locale, 'long')})</span>}
        </dd>
        {record.callerId && (
          <>
            <dt>{t('detail.callerId')}</dt>
            <dd>{record.callerId}</dd>
          </>
        )}
      </dl>
      <div className="history-actions" role="group" aria-label={t('detail.actions')}>
        <CommandButton id="history.callBack" primary />
        <CommandButton id="history.downloadCsv" />
      </div>
    </article>
  );
}
