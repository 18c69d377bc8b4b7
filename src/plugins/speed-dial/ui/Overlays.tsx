import { useSnapshot } from 'valtio';
import { sdState, type FormStart } from '../state';
import { Sidecar } from './Sidecar';
import { SpeedDialForm } from './SpeedDialForm';

/** The edit form and the side panel, over whatever screen is shown. */
export default function Overlays() {
  const s = useSnapshot(sdState);
  return (
    <>
      {s.panelOpen && !s.form && <Sidecar />}
      {s.form && <SpeedDialForm key={s.form.id ?? 'new'} start={s.form as FormStart} />}
    </>
  );
}
