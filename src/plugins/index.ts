import type { PluginManifest } from '../kernel';
import { contactsPlugin } from './contacts';
import { historyPlugin } from './history';
import { telephonyPlugin } from './telephony';

/** Every plugin the product ships, in load order. Feature flags decide which actually load. */
export const plugins: readonly PluginManifest[] = [historyPlugin, contactsPlugin, telephonyPlugin];
