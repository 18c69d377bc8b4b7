import { useId, useReducer } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useCommand } from '../../../kernel';
import { useTelephonyT } from './useTelephonyT';

/** A command as a button, with the reason beside it when it cannot run now. */
function CommandButton({ id, labelKey, after }: { id: string; labelKey: string; after(): void }) {
  const t = useTelephonyT();
  const { t: tAny } = useTranslation();
  const cmd = useCommand(id);
  const reasonId = useId();
  const enabled = cmd.enablement === true;
  return (
    <div className="this-computer-item">
      <Button className="btn" isDisabled={!enabled} aria-describedby={enabled ? undefined : reasonId} onPress={() => void cmd.run().then(after)}>
        {t(labelKey)}
      </Button>
      {!enabled && typeof cmd.enablement === 'object' && (
        <span id={reasonId} className="muted">
          {tAny(cmd.enablement.reasonKey)}
        </span>
      )}
    </div>
  );
}

/** Desktop notifications of calls and phone links (tel:, sip:) for this browser. */
export function ThisComputer() {
  const t = useTelephonyT();
  const headingId = useId();
  // The browser's answers (permission, handler) are not observable: re-read after each command.
  const [, refresh] = useReducer((n: number) => n + 1, 0);
  return (
    <section aria-labelledby={headingId} className="this-computer">
      <h2 id={headingId}>{t('thisComputer.title')}</h2>
      <CommandButton id="telephony.notifications" labelKey="thisComputer.notifications" after={refresh} />
      <CommandButton id="telephony.phoneLinks" labelKey="thisComputer.phoneLinks" after={refresh} />
    </section>
  );
}
