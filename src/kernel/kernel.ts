import type { FeatureFlags } from '../wire';
import { BootError } from './bootError';
import {
  MENUS,
  SLOTS,
  type CommandBehaviour,
  type CommandContext,
  type CommandContribution,
  type CommandSource,
  type ContextSnapshot,
  type Enablement,
  type HotkeyContribution,
  type MenuItemContribution,
  type NavContribution,
  type PanelContribution,
  type PluginContext,
  type PluginLater,
  type PluginManifest,
  type RouteContribution,
  type SearchProvider,
  type SettingContribution,
  type StopWork,
} from './contract';
import { createContextState, snapshotContext, type ContextState } from './contextState';
import { DisposableStore, toDisposable, type Disposable } from './disposable';
import { normaliseBinding } from './keys';
import { createLogger, ReportedError, type Logger } from './log';
import { Registry } from './registry';
import type { ServiceKey, ServiceLookup } from './services';

export interface Owned<T> {
  plugin: string;
  item: T;
}

export interface KernelOptions {
  features: FeatureFlags;
  /** For hotkey collision checks; defaults to the browser's platform. */
  mac?: boolean;
  /**
   * Tells the user that a command failed without saying why (it threw something other than a
   * ReportedError), or that no such command exists. The shell shows a toast; the kernel itself
   * holds no text. Without it, failures are only logged.
   */
  onCommandFailure?(failure: CommandFailure): void;
}

/** A command run that went wrong: the command's title key (null for an unknown id). */
export interface CommandFailure {
  commandId: string;
  titleKey: string | null;
  error: unknown;
}

/** A plugin's later part (PluginManifest.later): loading, or in with its command behaviours. */
interface LaterPart {
  loaded: boolean;
  loading?: Promise<void>;
  readonly behaviours: Map<string, CommandBehaviour>;
}

/** What a command of a plugin whose later part is not in yet answers when asked whether it may run. */
export const NOT_LOADED: Enablement = { reasonKey: 'shell:commandLoading' };

interface ServiceEntry {
  owner: string;
  create: () => unknown;
  instance?: unknown;
  creating?: boolean;
}

/**
 * The kernel: registries for every contribution, typed services, context keys and command runs.
 * It knows no plugin; the shell hands it the manifests.
 */
/** The longest a plugin's settling work (PluginContext.settle) holds back hotkeys. */
export const SETTLE_MAX_MS = 10_000;
/** How long after activation a plugin's deferred work starts (PluginContext.afterFirstScreen). */
export const FIRST_SCREEN_DELAY_MS = 300;

export class Kernel implements ServiceLookup {
  readonly context: ContextState;
  readonly plugins = new Registry<PluginManifest>('plugins');
  readonly commands = new Registry<Owned<CommandContribution>>('commands');
  readonly hotkeys = new Registry<Owned<HotkeyContribution>>('hotkeys');
  readonly routes = new Registry<Owned<RouteContribution>>('routes');
  readonly nav = new Registry<Owned<NavContribution>>('nav');
  readonly panels = new Registry<Owned<PanelContribution>>('panels');
  readonly menus = new Registry<Owned<MenuItemContribution>>('menus');
  readonly searchProviders = new Registry<Owned<SearchProvider>>('searchProviders');
  readonly settings = new Registry<Owned<SettingContribution>>('settings');
  readonly i18nNamespaces = new Registry<Owned<NonNullable<PluginManifest['i18n']>>>('i18n');
  private readonly services = new Map<string, ServiceEntry>();
  private readonly pluginStores = new Map<string, DisposableStore>();
  private readonly runListeners = new Set<(id: string, source: CommandSource) => void>();
  private readonly mac: boolean | undefined;
  private readonly onCommandFailure: KernelOptions['onCommandFailure'];
  private readonly logs = new Map<string, Logger>();
  private commandStateVersion = 0;
  private readonly commandStateListeners = new Set<() => void>();
  private readonly settling = new Set<Promise<void>>();
  private readonly laterParts = new Map<string, LaterPart>();

  constructor(opts: KernelOptions) {
    this.context = createContextState(opts.features);
    this.mac = opts.mac;
    this.onCommandFailure = opts.onCommandFailure;
  }

  // ---- services -------------------------------------------------------------------------------

  /** Shell-provided services (api, navigation, notifications…). */
  provide<T>(key: ServiceKey<T>, value: T, owner = 'core'): Disposable {
    if (this.services.has(key.id)) throw new BootError([`service "${key.id}" is provided twice`]);
    this.services.set(key.id, { owner, create: () => value, instance: value });
    return toDisposable(() => this.services.delete(key.id));
  }

  get<T>(key: ServiceKey<T>): T {
    const entry = this.services.get(key.id);
    if (!entry) throw new Error(`No plugin provides service "${key.id}"`);
    if (!('instance' in entry) || entry.instance === undefined) {
      if (entry.creating) throw new Error(`Service "${key.id}" depends on itself`);
      entry.creating = true;
      try {
        entry.instance = entry.create();
      } finally {
        entry.creating = false;
      }
    }
    return entry.instance as T;
  }

  maybe<T>(key: ServiceKey<T>): T | undefined {
    return this.services.has(key.id) ? this.get(key) : undefined;
  }

  has(key: ServiceKey<unknown>): boolean {
    return this.services.has(key.id);
  }

  // ---- plugins --------------------------------------------------------------------------------

  get features(): FeatureFlags {
    return this.context.features as FeatureFlags;
  }

  private featureOn(flag: keyof FeatureFlags | undefined): boolean {
    return flag === undefined || this.features[flag] === true;
  }

  /**
   * Validates every manifest against each other and what is registered, then registers them all.
   * Nothing is registered when any problem is found: the error lists all of them.
   * `complete`: these are all the product's plugins (the shell's boot), so a home route is required;
   * a test that loads a few plugins leaves it out.
   */
  load(manifests: readonly PluginManifest[], opts: { complete?: boolean } = {}): void {
    const active = manifests.filter((m) => this.featureOn(m.feature));
    const problems = this.validate(active, opts.complete === true);
    if (problems.length) throw new BootError(problems);
    for (const m of active) this.register(m);
    for (const m of active) this.activate(m);
  }

  unload(pluginId: string): void {
    this.pluginStores.get(pluginId)?.dispose();
    this.pluginStores.delete(pluginId);
  }

  dispose(): void {
    for (const id of [...this.pluginStores.keys()].reverse()) this.unload(id);
  }

  /** Sizes of every registry: a test compares them before load and after dispose. */
  sizes(): Record<string, number> {
    return {
      plugins: this.plugins.size,
      commands: this.commands.size,
      hotkeys: this.hotkeys.size,
      routes: this.routes.size,
      nav: this.nav.size,
      panels: this.panels.size,
      menus: this.menus.size,
      searchProviders: this.searchProviders.size,
      settings: this.settings.size,
      i18n: this.i18nNamespaces.size,
      services: this.services.size,
      contextKeys: Object.keys(this.context.keys).length,
    };
  }

  /** The path of the route marked `home`, where `/` leads. */
  homePath(): string | undefined {
    return this.routes.list().find((r) => r.item.home)?.item.path;
  }

  private validate(manifests: readonly PluginManifest[], complete: boolean): string[] {
    const problems: string[] = [];
    const seen = (kind: string, existing: Registry<unknown>) => {
      const ids = new Map<string, string>();
      return (id: string, plugin: string) => {
        const prev = ids.get(id) ?? existing.ownerOf(id);
        if (prev !== undefined) problems.push(`duplicate ${kind} id "${id}" (plugins "${prev}" and "${plugin}")`);
        else ids.set(id, plugin);
      };
    };
    const pluginId = seen('plugin', this.plugins);
    const commandId = seen('command', this.commands);
    const routeId = seen('route', this.routes);
    const navId = seen('navigation', this.nav);
    const panelId = seen('panel', this.panels);
    const menuId = seen('menu item', this.menus);
    const providerId = seen('search provider', this.searchProviders);
    const settingId = seen('setting', this.settings);
    const namespaceId = seen('i18n namespace', this.i18nNamespaces);
    const paths = new Map<string, string>(this.routes.entries().map((e) => [e.item.item.path, e.owner]));
    const homes = this.routes.entries().flatMap((e) => (e.item.item.home ? [`"${e.id}" (plugin "${e.owner}")`] : []));

    const provided = new Set([...this.services.keys()]);
    const commandIds = new Set(this.commands.entries().map((e) => e.id));
    for (const m of manifests) {
      for (const p of m.provides ?? []) {
        if (provided.has(p.key.id)) problems.push(`service "${p.key.id}" is provided twice (plugin "${m.id}")`);
        provided.add(p.key.id);
      }
      for (const c of m.commands ?? []) if (this.featureOn(c.feature)) commandIds.add(c.id);
    }

    const bindings = new Map<string, string>();
    for (const e of this.hotkeys.entries()) bindings.set(this.bindingSlot(e.item.item), e.item.item.command);

    for (const m of manifests) {
      pluginId(m.id, m.id);
      for (const r of m.requires ?? []) if (!provided.has(r.id)) problems.push(`plugin "${m.id}" requires service "${r.id}" that nothing provides`);
      for (const c of m.commands ?? []) {
        commandId(c.id, m.id);
        if (!c.id.startsWith(`${m.id}.`)) problems.push(`command "${c.id}" must be prefixed with its plugin id "${m.id}."`);
      }
      for (const r of m.routes ?? []) {
        routeId(r.id, m.id);
        const prev = paths.get(r.path);
        if (prev !== undefined) problems.push(`route path "${r.path}" declared by "${prev}" and "${m.id}"`);
        paths.set(r.path, m.id);
        if (!r.component && !r.redirect) problems.push(`route "${r.id}" has neither a component nor a redirect`);
        if (r.home && this.featureOn(r.feature)) homes.push(`"${r.id}" (plugin "${m.id}")`);
      }
      for (const n of m.nav ?? []) navId(n.id, m.id);
      for (const p of m.panels ?? []) {
        panelId(p.id, m.id);
        if (!(SLOTS as readonly string[]).includes(p.slot)) problems.push(`panel "${p.id}" targets unknown slot "${p.slot}"`);
      }
      for (const mi of m.menus ?? []) {
        menuId(mi.id, m.id);
        if (!(MENUS as readonly string[]).includes(mi.menu)) problems.push(`menu item "${mi.id}" targets unknown menu "${mi.menu}"`);
        if (!commandIds.has(mi.command) && this.commandDeclared(manifests, mi.command) === 'missing')
          problems.push(`menu item "${mi.id}" runs unknown command "${mi.command}"`);
      }
      for (const s of m.searchProviders ?? []) providerId(s.id, m.id);
      for (const s of m.settings ?? []) settingId(s.key, m.id);
      if (m.i18n) namespaceId(m.i18n.namespace, m.id);
      for (const h of m.hotkeys ?? []) {
        const declared = this.commandDeclared(manifests, h.command);
        if (declared === 'missing' && !commandIds.has(h.command)) {
          problems.push(`hotkey "${h.keys}" runs unknown command "${h.command}"`);
          continue;
        }
        if (declared === 'gated') continue;
        const slot = this.bindingSlot(h);
        const other = bindings.get(slot);
        if (other !== undefined) problems.push(`hotkey "${h.keys}" of "${h.command}" collides with "${other}" in scope "${h.scope ?? 'global'}"`);
        else bindings.set(slot, h.command);
      }
    }
    if (homes.length > 1) problems.push(`more than one home route: ${homes.join(', ')}`);
    if (complete && homes.length === 0) problems.push('no route is the home route (RouteContribution.home)');
    return problems;
  }

  private commandDeclared(manifests: readonly PluginManifest[], id: string): 'ok' | 'gated' | 'missing' {
    if (this.commands.has(id)) return 'ok';
    for (const m of manifests)
      for (const c of m.commands ?? []) if (c.id === id) return this.featureOn(c.feature) ? 'ok' : 'gated';
    return 'missing';
  }

  private bindingSlot(h: HotkeyContribution): string {
    return `${h.scope ?? 'global'}::${normaliseBinding(h.keys, this.mac)}`;
  }

  private register(m: PluginManifest): void {
    const store = new DisposableStore();
    this.pluginStores.set(m.id, store);
    const own = <T>(item: T): Owned<T> => ({ plugin: m.id, item });
    store.add(this.plugins.add(m.id, m, m.id));
    if (m.i18n) store.add(this.i18nNamespaces.add(m.i18n.namespace, own(m.i18n), m.id));
    const gatedCommands = new Set<string>();
    for (const c of m.commands ?? []) {
      if (!this.featureOn(c.feature)) {
        gatedCommands.add(c.id);
        continue;
      }
      store.add(this.commands.add(c.id, own(c), m.id));
    }
    for (const h of m.hotkeys ?? []) if (!gatedCommands.has(h.command)) store.add(this.hotkeys.add(h.command, own(h), m.id));
    for (const r of m.routes ?? []) if (this.featureOn(r.feature)) store.add(this.routes.add(r.id, own(r), m.id));
    for (const n of m.nav ?? []) if (this.featureOn(n.feature)) store.add(this.nav.add(n.id, own(n), m.id));
    for (const p of m.panels ?? []) store.add(this.panels.add(p.id, own(p), m.id));
    for (const mi of m.menus ?? []) if (!gatedCommands.has(mi.command)) store.add(this.menus.add(mi.id, own(mi), m.id));
    for (const s of m.searchProviders ?? []) store.add(this.searchProviders.add(s.id, own(s), m.id));
    for (const s of m.settings ?? []) store.add(this.settings.add(s.key, own(s), m.id));
    if (m.later) {
      this.laterParts.set(m.id, { loaded: false, behaviours: new Map() });
      store.add(toDisposable(() => this.laterParts.delete(m.id)));
    }
    const ctx = this.pluginContext(m.id, store);
    for (const p of m.provides ?? []) {
      const id = p.key.id;
      this.services.set(id, { owner: m.id, create: () => p.create(ctx) });
      store.add(
        toDisposable(() => {
          const entry = this.services.get(id);
          if (entry?.owner === m.id) {
            const inst = entry.instance as Partial<{ dispose(): void }> | undefined;
            inst?.dispose?.();
            this.services.delete(id);
          }
        }),
      );
    }
  }

  private activate(m: PluginManifest): void {
    const store = this.pluginStores.get(m.id);
    if (!store) return;
    const ctx = this.pluginContext(m.id, store);
    if (m.activate) {
      const result = m.activate(ctx);
      if (result) store.add(result);
    }
    // The plugin settles from now until its later part is in: a hotkey pressed meanwhile is held.
    if (m.later) ctx.afterFirstScreen((settled) => this.loadLater(m.id).finally(settled), { settles: true });
  }

  /**
   * Loads a plugin's later part once (again after a failure: the next run tries again) and adds
   * what it contributes. Resolves when it is in; rejects if it could not be loaded.
   */
  private loadLater(pluginId: string): Promise<void> {
    const part = this.laterParts.get(pluginId);
    const m = this.plugins.get(pluginId);
    if (!part || !m?.later) return Promise.resolve();
    if (part.loaded) return Promise.resolve();
    part.loading ??= m.later().then(
      (later) => {
        if (this.laterParts.get(pluginId) !== part) return; // unloaded meanwhile
        this.attachLater(pluginId, part, later);
      },
      (err: unknown) => {
        part.loading = undefined;
        this.logOf(pluginId).error('its later part could not be loaded', err);
        throw err;
      },
    );
    return part.loading;
  }

  private attachLater(pluginId: string, part: LaterPart, later: PluginLater): void {
    const store = this.pluginStores.get(pluginId)!;
    for (const [id, b] of Object.entries(later.commands ?? {})) {
      if (this.commands.ownerOf(id) !== pluginId) {
        // A gated command (feature off) is not registered: its behaviour has nothing to attach to.
        if (!this.plugins.get(pluginId)?.commands?.some((c) => c.id === id)) this.logOf(pluginId).error(`its later part gives "${id}", which is not one of its commands`);
        continue;
      }
      part.behaviours.set(id, b);
    }
    for (const sp of later.searchProviders ?? []) store.add(this.searchProviders.add(sp.id, { plugin: pluginId, item: sp }, pluginId));
    part.loaded = true;
    if (later.activate) {
      const result = later.activate(this.pluginContext(pluginId, store));
      if (result) store.add(result);
    }
    this.commandStateChanged();
  }

  /**
   * Loads every plugin's later part now, without waiting for the first screen (tests; a caller that
   * needs every command's behaviour at once). Resolves when all are in; one that fails is logged.
   */
  async loadLaterParts(): Promise<void> {
    await Promise.all([...this.laterParts.keys()].map((id) => this.loadLater(id).catch(() => undefined)));
  }

  /** The later part that a command's behaviour waits for, if it is not in yet. */
  private pendingPart(commandId: string): string | undefined {
    const owner = this.commands.ownerOf(commandId);
    return owner !== undefined && this.laterParts.get(owner)?.loaded === false ? owner : undefined;
  }

  private behaviourOf(commandId: string): CommandBehaviour | undefined {
    const owner = this.commands.ownerOf(commandId);
    return owner === undefined ? undefined : this.laterParts.get(owner)?.behaviours.get(commandId);
  }

  private pluginContext(pluginId: string, store: DisposableStore): PluginContext {
    const keys = this.context.keys;
    const settling = () => {
      // Bounded: a server that never answers must not leave the kernel settling for ever.
      let done = () => {};
      const p = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, SETTLE_MAX_MS);
        done = () => (clearTimeout(timer), resolve());
      });
      this.settling.add(p);
      void p.then(() => this.settling.delete(p));
      return done;
    };
    return {
      pluginId,
      log: this.logOf(pluginId),
      services: this,
      features: this.features,
      setContextKey: (name, value) => {
        const key = `${pluginId}.${name}`;
        const isNew = !(key in keys);
        keys[key] = value;
        if (isNew) store.add(toDisposable(() => delete keys[key]));
      },
      track: (d) => store.add(d),
      commandsRead: (subscribe) => {
        store.add(toDisposable(subscribe(() => this.commandStateChanged())));
      },
      settling,
      afterFirstScreen: (start, opts = {}) => {
        const settled = opts.settles ? settling() : () => {};
        let gone = false;
        let stop: StopWork;
        let idle: number | undefined;
        const run = () => {
          void Promise.resolve()
            .then(() => start(settled))
            .then(
              (s) => (gone ? s?.() : (stop = s)),
              (err: unknown) => {
                settled();
                this.logOf(pluginId).error('the work after the first screen failed', err);
              },
            );
        };
        const timer = setTimeout(() => {
          if (opts.idle && typeof requestIdleCallback === 'function') idle = requestIdleCallback(run, { timeout: 1000 });
          else run();
        }, FIRST_SCREEN_DELAY_MS);
        store.add(
          toDisposable(() => {
            gone = true;
            clearTimeout(timer);
            if (idle !== undefined) cancelIdleCallback(idle);
            settled();
            stop?.();
          }),
        );
      },
    };
  }

  // ---- settling -------------------------------------------------------------------------------

  /** Whether some plugin is still finding out which of its commands apply (see PluginContext.settling). */
  get isSettling(): boolean {
    return this.settling.size > 0;
  }

  /** Resolves when no plugin is settling any more (work registered meanwhile is waited for too). */
  async whenSettled(): Promise<void> {
    while (this.settling.size > 0) await Promise.all([...this.settling]);
  }

  // ---- commands -------------------------------------------------------------------------------

  /**
   * Changes of the plugin stores that command predicates read (PluginContext.commandsRead), for
   * useSyncExternalStore: whoever shows a command's state subscribes here as well as to the context.
   */
  subscribeCommandState = (listener: () => void): (() => void) => {
    this.commandStateListeners.add(listener);
    return () => this.commandStateListeners.delete(listener);
  };

  getCommandStateVersion = (): number => this.commandStateVersion;

  private commandStateChanged(): void {
    this.commandStateVersion++;
    for (const l of [...this.commandStateListeners]) l();
  }

  snapshot(): ContextSnapshot {
    return snapshotContext(this.context);
  }

  commandContext(source: CommandSource, context: ContextSnapshot = this.snapshot(), owner = 'kernel'): CommandContext {
    return { source, context, services: this, log: this.logOf(owner) };
  }

  /** The log of a plugin (or of the kernel), one per id. */
  logOf(owner: string): Logger {
    let log = this.logs.get(owner);
    if (!log) this.logs.set(owner, (log = createLogger(owner)));
    return log;
  }

  isVisible(command: CommandContribution, context: ContextSnapshot = this.snapshot()): boolean {
    return command.when ? command.when(context) : true;
  }

  /** The words the palette matches a command by: its manifest's, and its later part's once that is in. */
  keywordsOf(command: CommandContribution): readonly string[] {
    const later = this.behaviourOf(command.id)?.keywords;
    return later ? [...(command.keywords ?? []), ...later] : (command.keywords ?? []);
  }

  enablement(command: CommandContribution, ctx: CommandContext = this.commandContext('api')): Enablement {
    if (this.pendingPart(command.id) !== undefined) return NOT_LOADED;
    const enabled = this.behaviourOf(command.id)?.enabled ?? command.enabled;
    return enabled ? enabled(ctx) : true;
  }

  /**
   * Runs a command by id with the live context; refuses invisible or disabled commands. Never
   * rejects: a command that throws, or an id that names no command, is logged under its plugin,
   * reported to the user once (see KernelOptions.onCommandFailure; not again for a ReportedError),
   * and the run answers false, as a refused one does.
   */
  async run(id: string, args: Readonly<Record<string, unknown>> = {}, source: CommandSource = 'api', context?: ContextSnapshot): Promise<boolean> {
    const entry = this.commands.get(id);
    if (!entry) {
      this.logOf('kernel').error(`no command "${id}" (run from ${source})`);
      this.onCommandFailure?.({ commandId: id, titleKey: null, error: null });
      return false;
    }
    const owner = this.commands.ownerOf(id) ?? 'kernel';
    const ctx = this.commandContext(source, context, owner);
    if (!this.isVisible(entry.item, ctx.context)) return false;
    const pending = this.pendingPart(id);
    if (pending !== undefined) {
      // Run just after sign-in (a button, a link): wait for the part that knows how.
      try {
        await this.loadLater(pending);
      } catch (error) {
        this.onCommandFailure?.({ commandId: id, titleKey: entry.item.titleKey, error });
        return false;
      }
      if (this.commands.get(id) !== entry) return false;
    }
    if (this.enablement(entry.item, ctx) !== true) return false;
    for (const l of this.runListeners) l(id, source);
    try {
      checkGiven(id, entry.item.given, args);
      await (this.behaviourOf(id)?.run ?? entry.item.run)(ctx, args);
    } catch (error) {
      ctx.log.error(`command ${id} failed (run from ${source})`, error);
      if (!(error instanceof ReportedError)) this.onCommandFailure?.({ commandId: id, titleKey: entry.item.titleKey, error });
      return false;
    }
    return true;
  }

  onRun(listener: (id: string, source: CommandSource) => void): Disposable {
    this.runListeners.add(listener);
    return toDisposable(() => this.runListeners.delete(listener));
  }
}

function checkGiven(id: string, given: CommandContribution['given'], args: Readonly<Record<string, unknown>>): void {
  for (const [name, type] of Object.entries(given ?? {})) {
    const v = args[name];
    if (v === undefined) continue;
    const ok = type === 'strings' ? Array.isArray(v) && v.every((x) => typeof x === 'string') : typeof v === type;
    if (!ok) throw new TypeError(`${id}: argument "${name}" must be ${type === 'strings' ? 'a list of strings' : `a ${type}`}`);
  }
}
