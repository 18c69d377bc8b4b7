import { useId, useRef, useState } from 'react';
import { Button, Input, Label, Text, TextField } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { useCommand } from '../../../kernel';
import { SPEED_DIAL_PANEL_COMMAND } from '../../../contracts';
import { dialFontSizePx, parseDialString } from '../model/dialString';
import { currentEngine } from '../engine';
import { tones } from '../engine/tonePlayer';
import { phone } from '../state';
import { KeyGrid } from './KeyGrid';
import { useTelephonyT } from './useTelephonyT';

const dialable = (text: string) => /^sips?:/i.test(text.trim()) || parseDialString(text).kind !== 'empty';

/**
 * Number input, the 12 keys, redial, backspace and Call. Enter in the input places the call (the
 * field is the whole form). Call is disabled, with the reason, while a call uses the line.
 */
export function Dialpad({ autoFocus = false, onPlaced }: { autoFocus?: boolean; onPlaced?: () => void }) {
  const t = useTelephonyT();
  const snap = useSnapshot(phone);
  const { lastDialled } = snap;
  // The Call command's enablement reads the live store; reading the same fields here re-renders
  // this component when they change.
  for (const c of Object.values(snap.calls)) void c.state;
  void snap.status;
  const call = useCommand('telephony.call');
  // The speed-dial plugin's side panel, when that plugin is there (named by its command's own title).
  const speedDial = useCommand(SPEED_DIAL_PANEL_COMMAND);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const reasonId = useId();
  const reason = call.enablement === true ? null : t(call.enablement.reasonKey, call.enablement.values);

  const place = async (dial: string) => {
    if (!dialable(dial)) {
      setError(t('dialpad.empty'));
      input.current?.focus();
      return;
    }
    setError(null);
    if (await call.run({ target: dial })) {
      setValue('');
      onPlaced?.();
    }
  };

  const press = (key: string) => {
    tones().dtmf(key);
    setError(null);
    currentEngine()?.warmMicrophone();
    setValue((v) => v + key);
  };

  return (
    <div className="dialpad">
      <TextField className="field dialpad-field" value={value} onChange={(v) => {
          setValue(v);
          setError(null);
          // Typing a number means a call is coming: its microphone opens now, not at the click.
          if (v) currentEngine()?.warmMicrophone();
        }} isInvalid={error !== null} autoFocus={autoFocus}>
        <Label>{t('dialpad.number')}</Label>
        <Input
          ref={input}
          className="input dialpad-input"
          inputMode="tel"
          autoComplete="off"
          style={{ fontSize: dialFontSizePx(value) }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              void place(value);
            }
          }}
        />
        {error && (
          <Text slot="errorMessage" className="field-error" role="alert">
            {error}
          </Text>
        )}
      </TextField>
      <KeyGrid label={t('dialpad.keys')} onKey={press} />
      <div className="dialpad-actions">
        <Button className="btn" isDisabled={!lastDialled || reason !== null} aria-label={lastDialled ? t('dialpad.redialTo', { number: lastDialled }) : undefined} onPress={() => void place(lastDialled)}>
          {t('dialpad.redial')}
        </Button>
        <Button className="btn" isDisabled={!value} aria-label={t('dialpad.backspace')} onPress={() => setValue((v) => v.slice(0, -1))}>
          <span aria-hidden="true">⌫</span>
        </Button>
        {speedDial.visible && speedDial.command && (
          <Button className="btn" isDisabled={speedDial.enablement !== true} onPress={() => void speedDial.run()}>
            {t(speedDial.command.titleKey)}
          </Button>
        )}
        <Button className="btn accept" isDisabled={reason !== null} aria-describedby={reason ? reasonId : undefined} onPress={() => void place(value)}>
          {t('dialpad.call')}
        </Button>
      </div>
      {reason && (
        <p id={reasonId} className="dialpad-reason">
          {reason}
        </p>
      )}
    </div>
  );
}
