import { useState } from 'react';
import { Button, FileTrigger } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { ApiError, useKernel } from '../../../../kernel';
import { removeRecordedName, saveRecordedName } from '../../api';
import { log } from '../../log';
import { toNameWav } from '../../recordedName';

/**
 * Find-me's recorded name: a recording of one's name (any audio the browser decodes), saved at once
 * (it is not part of the tab's draft: there is nothing to undo on the server but removing it).
 */
export function RecordedName() {
  const { t } = useTranslation('preferences');
  const kernel = useKernel();
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const run = async (work: () => Promise<void>, doneKey: string) => {
    setBusy(true);
    setProblem(null);
    setStatus('');
    try {
      await work();
      setStatus(t(doneKey));
    } catch (err) {
      if (!(err instanceof ApiError)) log.error('recorded name', err);
      const detail = err instanceof ApiError && err.status < 500 ? err.body.message : null;
      setProblem(detail ? t('calling.findMe.nameFailedBecause', { reason: detail }) : t('calling.findMe.nameFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="prefs-row">
      <FileTrigger
        acceptedFileTypes={['audio/*']}
        onSelect={(list) => {
          const file = list?.[0];
          if (file) void run(async () => saveRecordedName(kernel, await toNameWav(file)), 'calling.findMe.nameSaved');
        }}
      >
        <Button className="btn" isDisabled={busy}>
          {t('calling.findMe.nameChoose')}
        </Button>
      </FileTrigger>
      <Button className="btn" isDisabled={busy} onPress={() => void run(() => removeRecordedName(kernel), 'calling.findMe.nameRemoved')}>
        {t('calling.findMe.nameRemove')}
      </Button>
      <p role="status" className="prefs-status">
        {status}
      </p>
      {problem && (
        <p role="alert" className="prefs-error">
          {problem}
        </p>
      )}
    </div>
  );
}
