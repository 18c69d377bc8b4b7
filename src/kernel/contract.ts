import type { Logger } from './log';
/**
 * The plugin contract. A plugin is data first: everything it contributes is declared here so the
 * kernel can list, validate and dispose it before (and without) running plugin code.
 */
import type { ComponentType } from 'react';
import type { FeatureFlag, FeatureFlags } from '../wire';
import type { Disposable } from './disposable';
import type { ServiceKey, ServiceLookup } from './services';

/** Where a command run came from; every run knows its source. */
export type CommandSource = 'palette' | 'hotkey' | 'button' | 'url' | 'menu' | 'api';

/** Read-only view of the context keys, snapshotted when the palette opens or a hotkey fires. */
export interface ContextSnapshot {
  readonly route: string;
  readonly authenticated: boolean;
  readonly userId: number | null;
  readonly roleId: number | null;
  readonly language: string;
  /** A modal dialog (not the palette) owns focus. */
  readonly modalOpen: boolean;
  readonly paletteOpen: boolean;
  readonly features: Readonly<FeatureFlags>;
  /** Plugin-owned keys, namespaced by plugin id, e.g. `history.selectedId`. */
  readonly keys: Readonly<Record<string, unknown>>;
}

export type WhenFn = (ctx: ContextSnapshot) => boolean;

/** `true`, or why not: `reasonKey` is an i18n key shown next to the disabled command. */
export type Enablement = true | { reasonKey: string; values?: Record<string, unknown> };

export interface CommandContext {
  readonly source: CommandSource;
  readonly context: ContextSnapshot;
  readonly services: ServiceLookup;
  /** The log of the plugin that owns the command. */
  readonly log: Logger;
}

export interface ArgOption {
  id: string;
  /** Human text (a name, a number): data, not an i18n key. */
  label: string;
  detail?: string;
  keywords?: readonly string[];
  value: unknown;
}

export interface CommandArgSpec {
  name: string;
  /** i18n key: the argument page's title and input placeholder. */
  titleKey: string;
  kind: 'text' | 'choice';
  /** For `choice`: take options from this search provider's entities (value = the entity). */
  provider?: string;
  /** For `choice`: options computed from the query. */
  options?: (query: string, ctx: CommandContext) => readonly ArgOption[];
  /** A `choice` that also accepts what was typed, e.g. a number not among the contacts. */
  allowFreeText?: boolean;
  /** Returns an i18n key describing why the text is refused, or null. */
  validate?: (text: string) => string | null;
}

export interface CommandContribution {
  /** `<pluginId>.<name>`; unique across plugins. */
  id: string;
  /** i18n key, translated at render time. */
  titleKey: string;
  /** Extra words the palette matches (not shown), in English; translated keywords may come via `keywordsKey`. */
  keywords?: readonly string[];
  keywordsKey?: string;
  args?: readonly CommandArgSpec[];
  /**
   * A whole palette query of this form is this command's first argument, typed without the
   * command's name (telephony's call takes `#12`: a number starting with # is a speed-dial
   * shortcut): the palette offers "Call ▸ #12" first and leaves out the rows that merely contain
   * the digits.
   */
  takesQuery?: RegExp;
  feature?: FeatureFlag;
  /** Visible at all (palette lists it, menus show it). Defaults to always. */
  when?: WhenFn;
  /** Runnable; disabled commands can still be listed with their reason. */
  enabled?: (ctx: CommandContext) => Enablement;
  /**
   * Keep this command out of the palette's list (e.g. list navigation keys), always or where the
   * condition holds. It still runs as an entity's action and by hotkey.
   */
  hiddenInPalette?: boolean | WhenFn;
  /** What callers other than the palette may pass (a button's call id): the kernel checks the types before a run. */
  given?: Readonly<Record<string, GivenType>>;
  run(ctx: CommandContext, args: Readonly<Record<string, unknown>>): void | Promise<void>;
}

/** The type of an argument a caller other than the palette may pass. */
export type GivenType = 'string' | 'number' | 'boolean' | 'strings';

/**
 * A command's behaviour that comes with its plugin's later part (PluginManifest.later): it replaces
 * the manifest's enablement and run of the command, and adds to its keywords.
 */
export interface CommandBehaviour {
  /** The words the palette finds it by (added to the manifest's): only the palette needs them, after the first screen. */
  keywords?: readonly string[];
  enabled?(ctx: CommandContext): Enablement;
  run?(ctx: CommandContext, args: Readonly<Record<string, unknown>>): void | Promise<void>;
}

/**
 * What of a plugin the first screen does not need: the enablement and runs of its commands, its
 * palette entities and its live work. The kernel loads it once the first screen has painted
 * (PluginContext.afterFirstScreen); until then the plugin is settling and its commands are not
 * available yet: a hotkey for one is held and runs once the part is in, a run waits for it, the
 * palette lists them when it is in.
 */
export interface PluginLater {
  /** By command id (`<plugin>.<name>`): only the plugin's own commands. */
  commands?: Readonly<Record<string, CommandBehaviour>>;
  searchProviders?: readonly SearchProvider[];
  /** Live work, as the manifest's `activate`: return what undoes it. */
  activate?(ctx: PluginContext): void | Disposable;
}

export interface HotkeyContribution {
  /** The command it runs; also the hotkey's id for user remapping. */
  command: string;
  /** tinykeys syntax: `$mod+k`, `Shift+?`, `g h`. */
  keys: string;
  /** Collisions are checked within a scope; `global` by default. */
  scope?: string;
  when?: WhenFn;
  /** Among matches whose `when` holds, the highest weight wins; a tie does nothing. */
  weight?: number;
  /** Fire even in text fields and while a modal owns focus: the palette key, and chords with a modifier that act on a call. */
  allowInInputs?: boolean;
  args?: Readonly<Record<string, unknown>>;
}

export interface RouteContribution {
  id: string;
  /** TanStack Router path: `/history`, `/calls/$id`, `/voicemail/{-$id}`. */
  path: string;
  /** i18n key of the screen's main heading and document title. */
  titleKey: string;
  /** Lazy screen; absent for pure redirects. */
  component?: () => Promise<{ default: ComponentType }>;
  /** Pure redirect (e.g. profile → preferences?panel=profile). */
  redirect?: { to: string; search?: Record<string, unknown> };
  validateSearch?: (search: Record<string, unknown>) => Record<string, unknown>;
  feature?: FeatureFlag;
  /**
   * The screen `/` leads to, the first after sign-in. Exactly one route of the product has it (the
   * kernel refuses to boot otherwise); the user may choose another (the HomePage service, the preferences).
   */
  home?: true;
  /**
   * A meeting's guest may open it: the guest mode of the shell (src/shell/guestBoot.tsx) registers
   * only such routes, with the plugin's commands, and nothing else of any plugin.
   */
  guest?: true;
}

/** What the navigation rail gives an entry's icon (lucide-react's icons take them all). */
export interface NavIconProps {
  className?: string;
  size?: number;
  strokeWidth?: number;
  'aria-hidden'?: boolean | 'true' | 'false';
  focusable?: boolean | 'true' | 'false';
}

export interface NavContribution {
  id: string;
  titleKey: string;
  to: string;
  /**
   * The entry's icon, an SVG component such as a lucide-react icon (`icon: History`). SVG rather
   * than emoji: emoji depend on the machine's fonts (a Debian desktop without an emoji font showed
   * empty boxes) and cannot follow the theme's colour.
   */
  icon: ComponentType<NavIconProps>;
  order: number;
  feature?: FeatureFlag;
  when?: WhenFn;
  /** React hook giving the unread count; the shell shows it (99+ above 99) and sums it into the document title. */
  useBadge?: () => number;
  /** i18n key for the badge's accessible text, given `{count}`. */
  badgeLabelKey?: string;
  /** The "go to" command, so the shell can show its hotkey. */
  command?: string;
}

/**
 * Named places panels go into: the call dock (telephony's), and the dashboard's tiles (the coming
 * dashboard plugin renders them). Slots nothing rendered (a status bar, detail actions) were removed.
 */
export const SLOTS = ['callDock', 'dashboard', 'brand'] as const;
export type SlotId = (typeof SLOTS)[number];

export interface PanelContribution {
  id: string;
  slot: SlotId;
  component: ComponentType;
  order?: number;
  when?: WhenFn;
}

export const MENUS = ['profileMenu', 'appsMenu', 'plusMenu'] as const;
export type MenuId = (typeof MENUS)[number];

/** Menus list commands: one command, every surface. */
export interface MenuItemContribution {
  id: string;
  menu: MenuId;
  command: string;
  order?: number;
}

/**
 * Words of an entity that come from the plugin's strings ("Voicemail from Bob, 2 min ago"): the
 * palette translates them when it lists the entity, and leaves the entity out until those strings
 * are loaded, so that a raw key or placeholder can never be shown.
 */
export interface EntityText {
  key: string;
  values?: Readonly<Record<string, unknown>>;
}

export interface PaletteEntity {
  /** Unique across providers: `<provider>:<id>`. */
  id: string;
  /** A name or a number (data, shown as it is), or text from the plugin's strings. */
  label: string | EntityText;
  detail?: string;
  keywords?: ReadonlyArray<string | EntityText>;
  /**
   * The whole palette query this entity is (speed dial's `#12`): a command that takes that query
   * (`takesQuery`) names the entity in its row, "Call ▸ #12 · Alice Nguyen (Speed dial)".
   */
  standsFor?: string;
  /** The first action runs on Enter; all are offered with Tab/→ (the entity's action page). */
  actions: ReadonlyArray<{ command: string; args?: Readonly<Record<string, unknown>> }>;
}

export interface SearchProvider {
  id: string;
  /** i18n key naming what it finds ("Contacts"); its entities are listed once this key has its string. */
  kindKey: string;
  /**
   * The entities now. A new array whenever they change, never the same array changed in place: the
   * palette keeps what it built from an array it has seen (50,000 contacts are not listed again at
   * every opening).
   */
  items(ctx: ContextSnapshot): readonly PaletteEntity[];
  /** Call `onChange` when items change so the palette rebuilds its index. */
  subscribe?(onChange: () => void): Disposable;
}

export interface SettingContribution {
  key: string;
  titleKey: string;
  kind: 'boolean' | 'choice' | 'number' | 'text';
  default: unknown;
  options?: ReadonlyArray<{ value: string; labelKey: string }>;
}

export interface ServiceProvision<T> {
  key: ServiceKey<T>;
  create(ctx: PluginContext): T;
}

export function provide<T>(key: ServiceKey<T>, create: (ctx: PluginContext) => T): ServiceProvision<T> {
  return { key, create };
}

export interface PluginContext {
  readonly pluginId: string;
  /** Lines prefixed with the plugin's id (instead of hand-written prefixes on console.error). */
  readonly log: Logger;
  readonly services: ServiceLookup;
  readonly features: Readonly<FeatureFlags>;
  /** Sets a context key of this plugin (`<pluginId>.<name>`). */
  setContextKey(name: string, value: unknown): void;
  /**
   * Declares a store of this plugin that its commands' `when` and `enabled` read (a selection, a
   * list): on each change the kernel tells bound buttons, menus and the open palette to evaluate
   * them again. The one rule: a predicate reads the context snapshot, or a store declared here;
   * nothing is published as a context key only to make buttons re-render.
   */
  commandsRead(subscribe: (onChange: () => void) => () => void): void;
  /** Registers something to dispose with the plugin. */
  track(d: Disposable): void;
  /**
   * Starts a time in which the plugin is still finding out which of its commands apply (a
   * permission or a list fetched after sign-in); call the returned function once it knows (again:
   * nothing). A hotkey pressed meanwhile for a command that does not apply yet is held and tried
   * again when the kernel has settled: "g r" typed just after sign-in still goes to the recordings
   * instead of being dropped. Bounded by the kernel (SETTLE_MAX_MS).
   */
  settling(): () => void;
  /**
   * Runs `start` once the first screen has had time to paint (FIRST_SCREEN_DELAY_MS after
   * activation; with `idle`, when the browser is next idle after that), so that a plugin's API calls
   * and lazy chunk do not compete with it. Nothing runs if the plugin goes first. What `start`
   * returns or resolves to stops its work with the plugin. With `settles`, the plugin is settling
   * (above) until `start` calls the function it is given, or fails.
   */
  afterFirstScreen(start: (settled: () => void) => StopWork | Promise<StopWork>, opts?: { settles?: boolean; idle?: boolean }): void;
}

/** What a plugin's deferred work returns to be stopped with the plugin (nothing: nothing to stop). */
export type StopWork = (() => void) | void;

export type LocaleLoader = (language: string) => Promise<Record<string, unknown>>;

export interface PluginManifest {
  id: string;
  titleKey: string;
  feature?: FeatureFlag;
  /**
   * The plugin's strings namespace. Without `load`, its strings are its folder's `locales/<lng>.json`
   * and its namespace is its folder's name: the product loads them for every plugin at once
   * (src/plugins/index.ts).
   */
  i18n?: { namespace: string; load?: LocaleLoader };
  provides?: ReadonlyArray<ServiceProvision<unknown>>;
  requires?: ReadonlyArray<ServiceKey<unknown>>;
  routes?: readonly RouteContribution[];
  nav?: readonly NavContribution[];
  panels?: readonly PanelContribution[];
  menus?: readonly MenuItemContribution[];
  commands?: readonly CommandContribution[];
  hotkeys?: readonly HotkeyContribution[];
  searchProviders?: readonly SearchProvider[];
  settings?: readonly SettingContribution[];
  /** Live work (protocol connections, timers); return what undoes it. */
  activate?(ctx: PluginContext): void | Disposable;
  /** The plugin's later part (its `later.ts`), loaded after the first screen: see PluginLater. */
  later?: () => Promise<PluginLater>;
}

export function definePlugin(manifest: PluginManifest): PluginManifest {
  return manifest;
}
