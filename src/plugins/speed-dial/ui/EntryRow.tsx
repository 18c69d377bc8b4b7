import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { SpeedDial } from '../../../wire/speedDial';
import { entryName } from '../model';

/** What a row says aloud: "#12 · Alice Nguyen, 1001, shared by Olivia Bennett". */
export function useRowText(): (e: SpeedDial) => string {
  const { t } = useTranslation('speed-dial');
  return (e) => [entryName(e), e.dial_string, e.canEdit ? (e.isShared ? t('list.sharedOwn') : '') : t('list.sharedBy', { name: e.owner_name })].filter(Boolean).join(', ');
}

/** One entry: shortcut, label, number, who shares it; Edit and Delete for the user's own. */
export function EntryRow({ e, actions }: { e: SpeedDial; actions?: { edit(): void; delete(): void } }) {
  const { t } = useTranslation('speed-dial');
  const name = entryName(e);
  return (
    <div className="sd-row" data-entry={e.id}>
      <span className="sd-shortcut">#{e.shortcut}</span>
      <span className="row-main">
        <span className="row-primary">{e.label || e.dial_string}</span>
        <span className="row-secondary">
          {e.dial_string}
          {!e.canEdit && <> · {t('list.sharedBy', { name: e.owner_name })}</>}
          {e.canEdit && e.isShared && <> · {t('list.sharedOwn')}</>}
        </span>
      </span>
      {actions && e.canEdit && (
        <span className="sd-actions">
          <Button className="btn small" aria-label={t('list.editOne', { name })} onPress={actions.edit}>
            {t('list.edit')}
          </Button>
          <Button className="btn small danger" aria-label={t('list.deleteOne', { name })} onPress={actions.delete}>
            {t('list.delete')}
          </Button>
        </span>
      )}
    </div>
  );
}
