import { Button, FileTrigger, Label, ProgressBar } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { useKernel } from '../../../kernel';
import { CSV_REQUIRED_COLUMNS } from '../../../wire/wizard';
import { downloadCsv, uploadUsers } from '../api';
import { isCsvFile } from '../model';
import { heldFile, UPLOAD, wizardState } from '../state';

/** One file at a time: a new choice replaces the old; a file that is not a CSV gets the warning and is not kept. */
function choose(files: FileList | null): void {
  const f = files?.[0];
  if (!f) return;
  const up = wizardState.upload;
  if (!isCsvFile(f)) return void Object.assign(up, { warningKey: 'upload.notCsv', errorValues: { name: f.name } });
  Object.assign(up, { file: heldFile(f), warningKey: null, errorKey: null, status: UPLOAD.IDLE, progress: 0 });
}

/** The bulk upload: idle (a file chosen or not), uploading (a progress bar), error (why, and try again). */
export function UploadStep({ onUploaded }: { onUploaded: () => void }) {
  const { t } = useTranslation('wizard');
  const kernel = useKernel();
  const up = useSnapshot(wizardState).upload;
  const uploading = up.status === UPLOAD.UPLOADING;
  const send = async () => {
    if (await uploadUsers(kernel)) onUploaded();
  };
  return (
    <div className="wz-upload">
      <p>{t('upload.text', { columns: CSV_REQUIRED_COLUMNS.join(', ') })}</p>
      <p className="wz-muted">{t('upload.passwordHint')}</p>
      <div className="wz-actions">
        <FileTrigger acceptedFileTypes={['.csv', 'text/csv']} onSelect={choose}>
          <Button className="btn" isDisabled={uploading}>
            {up.file ? t('upload.replace') : t('upload.choose')}
          </Button>
        </FileTrigger>
        <Button className="btn" onPress={() => void downloadCsv(kernel)}>
          {t('upload.download')}
        </Button>
      </div>
      <p className="wz-file" aria-live="polite">
        {up.file ? t('upload.chosen', { name: up.file.name, size: Math.max(1, Math.round(up.file.size / 1024)) }) : t('upload.noFile')}
      </p>
      {up.warningKey && (
        <p role="alert" className="wz-warning">
          {t(up.warningKey, up.errorValues)}
        </p>
      )}
      {uploading && (
        <ProgressBar className="wz-progress" value={Math.round(up.progress * 100)} valueLabel={t('upload.progress', { percent: Math.round(up.progress * 100) })}>
          {({ percentage, valueText }) => (
            <>
              <Label>{t('upload.progressLabel')}</Label>
              <span className="wz-muted"> {valueText}</span>
              <div className="wz-track" aria-hidden="true">
                <div className="wz-fill" style={{ inlineSize: `${percentage ?? 0}%` }} />
              </div>
            </>
          )}
        </ProgressBar>
      )}
      {up.status === UPLOAD.ERROR && up.errorKey && (
        <p role="alert" className="wz-error">
          {t(up.errorKey, up.errorValues)}
        </p>
      )}
      <div className="wz-actions">
        <Button className="btn primary" isDisabled={!up.file || uploading} onPress={() => void send()}>
          {up.status === UPLOAD.ERROR ? t('upload.retry') : t('upload.upload')}
        </Button>
      </div>
    </div>
  );
}
