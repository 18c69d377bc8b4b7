import { useEffect, useId, useState } from 'react';
import { useSnapshot } from 'valtio';
import { currentEngine } from '../engine';
import { phone } from '../state';
import { useTelephonyT } from './useTelephonyT';
import { log } from '../log';

/** Virtual entries Chromium adds next to the real devices; "System default" stands for them. */
const VIRTUAL = new Set(['default', 'communications']);

function useAudioDevices(): MediaDeviceInfo[] {
  const [list, setList] = useState<MediaDeviceInfo[]>([]);
  useEffect(() => {
    const media = typeof navigator === 'object' ? navigator.mediaDevices : undefined;
    if (!media?.enumerateDevices) return;
    let live = true;
    const load = () =>
      void media
        .enumerateDevices()
        .then((all) => live && setList(all.filter((d) => !VIRTUAL.has(d.deviceId))))
        .catch((err: unknown) => log.error('listing audio devices', err));
    load();
    media.addEventListener?.('devicechange', load);
    return () => {
      live = false;
      media.removeEventListener?.('devicechange', load);
    };
  }, []);
  return list;
}

function DeviceSelect({ label, value, devices, unnamedKey, onChange }: { label: string; value: string | null; devices: MediaDeviceInfo[]; unnamedKey: string; onChange(id: string | null): void }) {
  const t = useTelephonyT();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} className="input" value={value ?? ''} onChange={(e) => onChange(e.target.value || null)}>
        <option value="">{t('devices.systemDefault')}</option>
        {devices.map((d, i) => (
          <option key={d.deviceId} value={d.deviceId}>
            {d.label || t(unnamedKey, { n: i + 1 })}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * Microphone and speaker for calls, switched in live calls without dropping them and remembered
 * for the next ones. The speaker choice shows only where the browser can route audio (setSinkId).
 */
export function DevicePicker({ id }: { id?: string }) {
  const t = useTelephonyT();
  const { devices } = useSnapshot(phone);
  const all = useAudioDevices();
  const inputs = all.filter((d) => d.kind === 'audioinput');
  const outputs = all.filter((d) => d.kind === 'audiooutput');
  const canRoute = typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;
  return (
    <div id={id} className="device-picker" role="group" aria-label={t('devices.title')}>
      <DeviceSelect label={t('devices.microphone')} value={devices.input} devices={inputs} unnamedKey="devices.unnamedMicrophone" onChange={(v) => void currentEngine()?.setInputDevice(v)} />
      {canRoute && outputs.length > 0 && (
        <DeviceSelect label={t('devices.speaker')} value={devices.output} devices={outputs} unnamedKey="devices.unnamedSpeaker" onChange={(v) => currentEngine()?.setOutputDevice(v)} />
      )}
    </div>
  );
}
