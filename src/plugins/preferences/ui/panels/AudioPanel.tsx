import { useEffect, useState } from 'react';
import { Button, Label, ListBox, ListBoxItem, Meter, Popover, Select, SelectValue, Switch } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { TelephonyApi, type AudioChoice, type TelephonyService } from '../../../../contracts';
import { useService } from '../../../../kernel';
import { asShown, devicesOf, meterLevel, pendingChange, type DeviceOption } from '../../audio';
import { log } from '../../log';
import { PanelForm } from '../PanelForm';
import { useSave } from '../useSave';

/** How often the level meter reads the microphone (a screen reader is not told each change). */
const METER_MS = 100;

type Permission = 'granted' | 'prompt' | 'denied';

const canRoute = () => typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;

/** The browser's audio devices, following devicechange, and whether the microphone may be used. */
function useDevices(): { all: MediaDeviceInfo[]; permission: Permission | null; refresh: () => void } {
  const [all, setAll] = useState<MediaDeviceInfo[]>([]);
  const [permission, setPermission] = useState<Permission | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const media = navigator.mediaDevices as MediaDevices | undefined;
    if (!media?.enumerateDevices) return;
    let live = true;
    let status: PermissionStatus | null = null;
    const load = () => {
      void media
        .enumerateDevices()
        .then((list) => {
          if (!live) return;
          setAll(list);
          // Labels are hidden until the microphone is allowed; where the Permissions API cannot say, they tell.
          if (!status) setPermission(list.some((d) => d.kind === 'audioinput' && d.label) ? 'granted' : 'prompt');
        })
        .catch((err: unknown) => log.error('listing audio devices', err));
    };
    void navigator.permissions
      ?.query({ name: 'microphone' as PermissionName })
      .then((s) => {
        if (!live) return;
        status = s;
        setPermission(s.state);
        s.onchange = () => (setPermission(s.state), load());
      })
      .catch(() => undefined)
      .finally(load);
    media.addEventListener('devicechange', load);
    return () => {
      live = false;
      if (status) status.onchange = null;
      media.removeEventListener('devicechange', load);
    };
  }, [tick]);
  return { all, permission, refresh: () => setTick((n) => n + 1) };
}

function resumeOnGesture(ctx: AudioContext): void {
  const resume = () => {
    if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
    if (ctx.state !== 'suspended') for (const kind of ['pointerdown', 'keydown'] as const) window.removeEventListener(kind, resume, true);
  };
  for (const kind of ['pointerdown', 'keydown'] as const) window.addEventListener(kind, resume, true);
  ctx.addEventListener('statechange', resume);
  resume();
}

/** The microphone's level, 0–100, while the panel shows it; its tracks stop when it goes. */
function useLevel(api: TelephonyService, choice: AudioChoice, on: boolean): number | null {
  const [level, setLevel] = useState<number | null>(null);
  const { input, echoCancellation, noiseSuppression } = choice;
  useEffect(() => {
    if (!on) return;
    let live = true;
    let stream: MediaStream | null = null;
    let ctx: AudioContext | null = null;
    let timer: ReturnType<typeof setInterval> | undefined;
    api
      .openMicrophone({ input, echoCancellation, noiseSuppression })
      .then((s) => {
        stream = s;
        if (!live) return s.getTracks().forEach((t) => t.stop());
        ctx = new AudioContext();
        // A page opened by its address, before any click or key, may get a suspended context
        // (the browsers' autoplay rule): it reads silence until the first gesture resumes it.
        if (ctx.state === 'suspended') resumeOnGesture(ctx);
        const analyser = ctx.createAnalyser();
        analyser.fftSize = 1024;
        ctx.createMediaStreamSource(s).connect(analyser);
        const samples = new Float32Array(analyser.fftSize);
        timer = setInterval(() => {
          analyser.getFloatTimeDomainData(samples);
          setLevel(meterLevel(samples));
        }, METER_MS);
      })
      .catch((err: unknown) => (log.error('microphone level', err), live && setLevel(null)));
    return () => {
      live = false;
      clearInterval(timer);
      stream?.getTracks().forEach((t) => t.stop());
      void ctx?.close().catch(() => undefined);
      setLevel(null);
    };
  }, [api, input, echoCancellation, noiseSuppression, on]);
  return level;
}

/** Microphone, speaker and ringer, the microphone's processing, a level meter and a test tone. */
export function AudioPanel() {
  const { t } = useTranslation('preferences');
  const api = useService(TelephonyApi);
  const [saved, setSaved] = useState<AudioChoice | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    api.audio().then(
      (a) => live && setSaved(a),
      (err: unknown) => (log.error('audio settings', err), live && setFailed(true)),
    );
    return () => void (live = false);
  }, [api]);
  if (failed) return <p role="alert" className="prefs-error">{t('loadFailed')}</p>;
  if (!saved) return <p className="prefs-status">{t('loading')}</p>;
  return <AudioForm api={api} saved={saved} onSaved={setSaved} />;
}

function DeviceSelect({ label, value, options, unnamed, onChange }: { label: string; value: string | null; options: DeviceOption[]; unnamed: string; onChange: (id: string | null) => void }) {
  const { t } = useTranslation('preferences');
  const items = [{ id: '', label: t('audio.systemDefault') }, ...options.map((o, i) => ({ id: o.id, label: o.label || t(unnamed, { n: i + 1 }) }))];
  return (
    <Select className="prefs-group" selectedKey={value ?? ''} onSelectionChange={(k) => onChange(k ? String(k) : null)}>
      <Label className="prefs-label">{label}</Label>
      <Button className="prefs-select">
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <Popover className="popover">
        <ListBox className="menu" items={items}>
          {(o) => (
            <ListBoxItem id={o.id} className="menu-item" textValue={o.label}>
              {o.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}

function AudioForm({ api, saved, onSaved }: { api: TelephonyService; saved: AudioChoice; onSaved: (a: AudioChoice) => void }) {
  const { t } = useTranslation('preferences');
  const { all, permission, refresh } = useDevices();
  const inputs = devicesOf(all, 'audioinput');
  const outputs = devicesOf(all, 'audiooutput');
  const [draft, setDraft] = useState(saved);
  const [testing, setTesting] = useState(false);
  const shown = asShown(draft, inputs, outputs);
  const change = pendingChange(saved, draft, inputs, outputs);
  const dirty = Object.keys(change).length > 0;
  const level = useLevel(api, shown, permission === 'granted');
  const set = <K extends keyof AudioChoice>(k: K, v: AudioChoice[K]) => (setDraft((d) => ({ ...d, [k]: v })), setStatus(null));

  const { form, setStatus } = useSave('audio', {
    dirty,
    discard: () => setDraft(saved),
    logAs: 'saving audio settings',
    store: async () => {
      await api.setAudio(change);
      onSaved({ ...saved, ...change });
    },
  });

  const ask = () =>
    void api
      .openMicrophone(shown)
      .then((s) => s.getTracks().forEach((tr) => tr.stop()))
      .catch((err: unknown) => log.error('asking for the microphone', err))
      .finally(refresh);

  const testTone = () => {
    setTesting(true);
    void api
      .testTone(shown.output)
      .catch((err: unknown) => log.error('test tone', err))
      .finally(() => setTesting(false));
  };

  const routable = canRoute() && outputs.length > 0;
  return (
    <PanelForm {...form}>
      {permission && permission !== 'granted' && (
        <div className="prefs-group" role="note">
          <p>{t(permission === 'denied' ? 'audio.permissionDenied' : 'audio.permissionPrompt')}</p>
          <Button className="btn" onPress={ask}>
            {t('audio.allow')}
          </Button>
        </div>
      )}
      <DeviceSelect label={t('audio.microphone')} value={shown.input} options={inputs} unnamed="audio.unnamedMicrophone" onChange={(v) => set('input', v)} />
      {permission === 'granted' && (
        <Meter className="prefs-meter" value={level ?? 0} valueLabel={level === null ? t('audio.levelOff') : undefined}>
          {({ percentage }) => (
            <>
              <Label className="prefs-label">{t('audio.level')}</Label>
              <div className="prefs-meter-track" aria-hidden="true">
                <div className="prefs-meter-fill" style={{ width: `${percentage}%` }} />
              </div>
            </>
          )}
        </Meter>
      )}
      <Switch className="prefs-switch" isSelected={draft.echoCancellation} onChange={(v) => set('echoCancellation', v)}>
        <span className="prefs-switch-track" aria-hidden="true" />
        {t('audio.echoCancellation')}
      </Switch>
      <Switch className="prefs-switch" isSelected={draft.noiseSuppression} onChange={(v) => set('noiseSuppression', v)}>
        <span className="prefs-switch-track" aria-hidden="true" />
        {t('audio.noiseSuppression')}
      </Switch>
      {routable && (
        <>
          <DeviceSelect label={t('audio.speaker')} value={shown.output} options={outputs} unnamed="audio.unnamedSpeaker" onChange={(v) => set('output', v)} />
          <DeviceSelect label={t('audio.ringer')} value={shown.ring} options={outputs} unnamed="audio.unnamedSpeaker" onChange={(v) => set('ring', v)} />
        </>
      )}
      <div className="prefs-group">
        <Button className="btn" onPress={testTone} isDisabled={testing}>
          {t('audio.testTone')}
        </Button>
      </div>
      <p className="prefs-status">{t('audio.appliesToCalls')}</p>
    </PanelForm>
  );
}
