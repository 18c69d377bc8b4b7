import type { LocaleLoader, PluginManifest } from '../kernel';
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

/**
 * Every plugin's boot strings (`<plugin>/locales/<lng>.json`) in one module per language
 * (`index/bootStrings/<lng>.ts`), by plugin folder, which is the plugin's i18n namespace: all are needed
 * before the first screen, and one loader here costs the first screen 2.3 kB less (gzipped) than
 * one per manifest, each with its own table of twenty files (issue 17).
 */
const bootStrings: LocaleLoader = (lng) =>
  import(`./index/bootStrings/${lng}.ts`).then((m: { default: Record<string, Record<string, unknown>> }) =>
    Object.fromEntries(Object.entries(m.default).map(([path, strings]) => [path.split('/')[2]!, strings])),
  );

/** A manifest whose strings are its `locales/` gets them from the one loader. */
function withBootStrings(m: PluginManifest): PluginManifest {
  const i18n = m.i18n;
  if (!i18n || i18n.load) return m;
  const load: LocaleLoader = async (lng) => {
    const strings = (await bootStrings(lng))[i18n.namespace] as Record<string, unknown> | undefined;
    if (!strings) throw new Error(`no ${lng} strings for ${i18n.namespace} (src/plugins/${i18n.namespace}/locales/${lng}.json)`);
    return strings;
  };
  return { ...m, i18n: { ...i18n, load } };
}

/** Every plugin the product ships, in load order. Feature flags decide which actually load. */
export const plugins: readonly PluginManifest[] = [
  historyPlugin,
  contactsPlugin,
  messagingPlugin,
  telephonyPlugin,
  voicemailPlugin,
  recordingsPlugin,
  meetingsPlugin,
  speedDialPlugin,
  dashboardPlugin,
  mobilePlugin,
  brandingPlugin,
  tutorialPlugin,
  preferencesPlugin,
  wizardPlugin,
].map(withBootStrings);
