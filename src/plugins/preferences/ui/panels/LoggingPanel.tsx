import { useEffect, useState } from 'react';
import { Button, FieldError, Input, Label, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { LOG_LEVELS, LogStore, useService, type LogLevel, type LogSettings } from '../../../../kernel';
import { enteredMaxSizeMb, MAX_MAX_SIZE_MB, MIN_MAX_SIZE_MB } from '../../../../kernel/lazy';
import { log } from '../../log';
import { ChoiceSelect } from '../../../../ui/ChoiceSelect';
import { PanelForm } from '../PanelForm';
import { useSave } from '../useSave';

/** Hands a file to the browser's download manager. */
function saveFile(file: File): void {
  const url = URL.createObjectURL(file);
  const a = document.createElement('a');
  a.href = url;
  a.download = file.name;
  document.body.append(a);
  a.click();
  a.remove();
  // Some browsers start the download after the click returns; revoking at once can cancel it.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The client log of this browser: level, size, download and clear (the kernel's LogStore). */
export function LoggingPanel() {
  const { t } = useTranslation('preferences');
  const store = useService(LogStore);
  const [saved, setSaved] = useState<(LogSettings & { persistent: boolean }) | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    Promise.all([store.settings(), store.persistent()]).then(
      ([s, persistent]) => live && setSaved({ ...s, persistent }),
      (err: unknown) => (log.error('log settings', err), live && setFailed(true)),
    );
    return () => void (live = false);
  }, [store]);
  if (failed) return <p role="alert" className="prefs-error">{t('loadFailed')}</p>;
  if (!saved) return <p className="prefs-status">{t('loading')}</p>;
  return <LoggingForm saved={saved} onSaved={(s) => setSaved({ ...s, persistent: saved.persistent })} persistent={saved.persistent} />;
}

function LoggingForm({ saved, onSaved, persistent }: { saved: LogSettings; onSaved: (s: LogSettings) => void; persistent: boolean }) {
  const { t } = useTranslation('preferences');
  const store = useService(LogStore);
  const [level, setLevel] = useState<LogLevel>(saved.level);
  const [size, setSize] = useState(String(saved.maxSizeMb));
  const entered = enteredMaxSizeMb(size.trim());
  const dirty = level !== saved.level || size.trim() !== String(saved.maxSizeMb);

  const { form, setStatus } = useSave('logging', {
    dirty,
    ready: entered !== null,
    discard: () => (setLevel(saved.level), setSize(String(saved.maxSizeMb))),
    logAs: 'saving log settings',
    store: async () => {
      if (level !== saved.level) await store.setLevel(level);
      const kept = await store.setMaxSizeMb(size.trim());
      // What the store keeps (typed 40, kept 25) is what the field shows.
      setSize(String(kept));
      onSaved({ level, maxSizeMb: kept });
    },
  });

  const act = async (what: 'download' | 'clear') => {
    try {
      if (what === 'download') saveFile(await store.download());
      else await store.clear();
      setStatus({ key: what === 'download' ? 'logging.downloaded' : 'logging.cleared' });
    } catch (err) {
      log.error(`log ${what}`, err);
      setStatus({ key: what === 'download' ? 'logging.downloadFailed' : 'logging.clearFailed', error: true });
    }
  };

  return (
    <PanelForm {...form}>
      {!persistent && <p className="prefs-hint">{t('logging.pageOnly')}</p>}
      <ChoiceSelect
        buttonClassName="prefs-select"
        className="prefs-group"
        labelClassName="prefs-label"
        label={t('logging.level')}
        options={LOG_LEVELS.map((l) => ({ id: l, text: t(`logging.levels.${l}`) }))}
        selectedKey={level}
        onChange={(k) => (setLevel(k), setStatus(null))}
      />
      <TextField
        className="field"
        value={size}
        onChange={(v) => (setSize(v), setStatus(null))}
        inputMode="numeric"
        isRequired
        isInvalid={entered === null}
        validationBehavior="aria"
      >
        <Label>{t('logging.maxSize', { min: MIN_MAX_SIZE_MB, max: MAX_MAX_SIZE_MB })}</Label>
        <Input />
        <FieldError>{t('logging.digitsOnly')}</FieldError>
      </TextField>
      <div className="prefs-row">
        <Button className="btn" onPress={() => void act('download')}>
          {t('logging.download')}
        </Button>
        <Button className="btn" onPress={() => void act('clear')}>
          {t('logging.clear')}
        </Button>
      </div>
    </PanelForm>
  );
}
