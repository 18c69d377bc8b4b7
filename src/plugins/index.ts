import type { PluginManifest } from '../kernel';
import { brandingPlugin } from './branding';
import { contactsPlugin } from './contacts';
import { dashboardPlugin } from './dashboard';
import { historyPlugin } from './history';
import { meetingsPlugin } from './meetings';
import { messagingPlugin } from './messaging';
import { mobilePlugin } from './mobile';
import { preferencesPlugin } from './preferences';
import { recordingsPlugin } from './recordings';
import { speedDialPlugin } from './speed-dial';
import { telephonyPlugin } from './telephony';
import { tutorialPlugin } from './tutorial';
import { voicemailPlugin } from './voicemail';
import { wizardPlugin } from './wizard';

/** Every plugin the product ships, in load order. Feature flags decide which actually load. */
export const plugins: readonly PluginManifest[] = [historyPlugin, contactsPlugin, messagingPlugin, telephonyPlugin, voicemailPlugin, recordingsPlugin, meetingsPlugin, speedDialPlugin, dashboardPlugin, mobilePlugin, brandingPlugin, tutorialPlugin, preferencesPlugin, wizardPlugin];
