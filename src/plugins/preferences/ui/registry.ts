import type { PanelRow } from '../model';
import { AudioPanel } from './panels/AudioPanel';
import { CallingPanel } from './panels/CallingPanel';
import { GeneralPanel } from './panels/GeneralPanel';
import { LoggingPanel } from './panels/LoggingPanel';
import { MessagesPanel } from './panels/MessagesPanel';
import { PasswordPanel } from './panels/PasswordPanel';
import { ConnectWisePanel, IntegrationsPanel, SalesforcePanel } from './panels/PlaceholderPanel';
import { ProfilePanel } from './panels/ProfilePanel';

/*
 * The panel registry. To add a panel:
 *   1. write ui/panels/<Name>Panel.tsx: a component that renders <PanelForm> and calls
 *      usePanelForm(id, { dirty, save, discard }) (see GeneralPanel), its strings under
 *      `<id>.*` in strings/*.json (20 languages; the panel's name is `panels.<id>`, already there);
 *   2. add its row here: { id, component, when? }.
 * The list, the palette's "Preferences ▸ …" entity, `?panel=<id>` and the unsaved-changes guard
 * follow from the row; rows are shown in the specification's order (state.ts PANEL_IDS), whatever
 * their order here. A `when` hides the panel from users who do not have it, e.g. calling:
 *   { id: 'calling', component: CallingPanel, when: (s) => s.config.sip.configured }
 */
export const PANELS: readonly PanelRow[] = [
  { id: 'general', component: GeneralPanel },
  { id: 'password', component: PasswordPanel },
  { id: 'messages', component: MessagesPanel },
  { id: 'logging', component: LoggingPanel },
  { id: 'integrations', component: IntegrationsPanel },
  { id: 'connectwise', component: ConnectWisePanel },
  { id: 'salesforce', component: SalesforcePanel },
  { id: 'profile', component: ProfilePanel },
  // Both only for users with calling: every choice in them is the phone's.
  { id: 'audio', component: AudioPanel, when: (s) => s.config.sip.configured },
  { id: 'calling', component: CallingPanel, when: (s) => s.config.sip.configured },
];
