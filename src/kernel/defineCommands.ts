import type { ArgOption, CommandArgSpec, CommandBehaviour, CommandContext, CommandContribution, Enablement, GivenType, HotkeyContribution, PaletteEntity, WhenFn } from './contract';
import type { FeatureFlag } from '../wire';

/*
 * One table per plugin: each command's keys, scope, listing rule, enablement and run side by side,
 * in named rows (not positions), expanded into the kernel's command and hotkey contributions. A
 * command without a `run` in its row runs in the plugin's lazy chunk, whose `runs` object is typed
 * from the table (`LazyRuns<typeof table>`): a missing or misspelt run fails the type check, and each
 * run's `args` has the type its argument specs and `given` declare. A row whose `run` is `'later'` runs
 * in the plugin's later part (PluginManifest.later), whose `commands` are typed from the table the
 * same way (`LaterCommands<typeof table>`), with the enablement of any row.
 */

type GivenValue<T> = T extends 'string' ? string : T extends 'number' ? number : T extends 'boolean' ? boolean : T extends 'strings' ? readonly string[] : never;

/** The value a palette argument hands to `run`: typed text, a picked entity or option, or free text. */
type ArgValue<S> = S extends { kind: 'text' }
  ? string
  : (S extends { provider: string }
      ? PaletteEntity
      : S extends { options: (...a: never[]) => readonly (infer O)[] }
        ? O extends { value: infer V }
          ? V
          : unknown
        : unknown) | (S extends { allowFreeText: true } ? string : never);

/** The arguments a command's run receives; every one may be absent (a hotkey passes none). */
export type ArgsOf<R> = (R extends { args: readonly (infer S)[] } ? { readonly [X in S as X extends { name: infer N extends string } ? N : never]?: ArgValue<X> } : unknown) &
  (R extends { given: infer G } ? (string extends keyof G ? unknown : { readonly [K in keyof G]?: GivenValue<G[K]> }) : unknown);

export type CommandRun<A = unknown> = (ctx: CommandContext, args: A) => void | Promise<void>;

export interface CommandRow {
  /** Defaults to `<plugin>:commands.<name>`. */
  titleKey?: string;
  keywords?: readonly string[];
  keywordsKey?: string;
  /** What the palette asks for, in order. */
  args?: readonly CommandArgSpec[];
  /** What other callers may pass, checked when the command runs. */
  given?: Readonly<Record<string, GivenType>>;
  takesQuery?: RegExp;
  feature?: FeatureFlag;
  /** The hotkey(s), tinykeys syntax. */
  keys?: string | readonly string[];
  /** Where the hotkey works: everywhere (default), or only on the plugin's screen. */
  scope?: 'global' | 'screen';
  allowInInputs?: boolean;
  /** Whether the palette lists it: always (default), only on the plugin's screen, or never (it still runs as an entity's action or by hotkey). */
  listed?: 'always' | 'screen' | 'never';
  /** When the command exists at all; defaults to the table's `when`. `'screen'`: only on the plugin's screen. */
  when?: WhenFn | 'screen';
  enabled?: (ctx: CommandContext) => Enablement;
  /** Runs at boot (a navigation), or in the plugin's later part (`'later'`); without it the command runs in the lazy chunk. */
  run?: CommandRun<never> | 'later';
}

export type CommandTable = Readonly<Record<string, CommandRow>>;

/** The runs the lazy chunk must provide: one per row without a `run` of its own, no more. */
export type LazyRuns<T> = { readonly [K in keyof T as T[K] extends { run: CommandRun<never> | 'later' } ? never : K]: CommandRun<ArgsOf<T[K]>> };

/** What the later part may tell of any row: the words the palette finds it by, and whether it may run. */
interface LaterRow {
  readonly keywords?: readonly string[];
  readonly enabled?: (ctx: CommandContext) => Enablement;
}

/** What the later part gives the rows: any row its words and enablement, and each row whose `run` is `'later'` its run. */
export type LaterCommands<T> = {
  readonly [K in keyof T as T[K] extends { run: 'later' } ? K : never]: LaterRow & { readonly run: CommandRun<ArgsOf<T[K]>> };
} & {
  readonly [K in keyof T as T[K] extends { run: 'later' } ? never : K]?: LaterRow;
};

/**
 * A row with a boot run that reads its arguments: `run`'s `args` typed from the row's `args` and
 * `given`. Give an argument's `validate` or `options` typed parameters (`(text: string) => …`):
 * an untyped callback in `args` keeps TypeScript from inferring them.
 */
export function command<const A extends readonly CommandArgSpec[] = [], const G extends Readonly<Record<string, GivenType>> = Record<never, never>>(
  row: Omit<CommandRow, 'args' | 'given' | 'run'> & { args?: A; given?: G; run: CommandRun<ArgsOf<{ args: A; given: G }>> },
): CommandRow & { run: CommandRun<never> } {
  return row as CommandRow & { run: CommandRun<never> };
}

/** An argument option's value stays typed (`options: () => states.map(option)`). */
export const option = <V>(id: string, label: string, value: V, detail?: string): ArgOption & { value: V } => ({ id, label, value, detail });

export interface CommandsOptions<T extends CommandTable> {
  /** When the plugin's commands exist at all (a row's own `when` replaces it). */
  when?: WhenFn;
  /** The plugin's screen: where `scope: 'screen'` hotkeys work and `listed: 'screen'` rows are listed. */
  screen?: WhenFn;
  /** The lazy chunk's runs (its strings loaded), fetched on the first run of a lazy command. */
  lazy?: () => Promise<LazyRuns<NoInfer<T>>>;
}

export interface PluginCommands<P extends string, T extends CommandTable> {
  readonly commands: readonly CommandContribution[];
  readonly hotkeys: readonly HotkeyContribution[];
  /** `ids.delete === 'voicemail.delete'`: command ids for `kernel.run` and `useCommand`, typed. */
  readonly ids: { readonly [K in keyof T & string]: `${P}.${K}` };
  /** The later part's behaviours of the table's rows, by command id (PluginLater.commands). */
  later(behaviours: LaterCommands<NoInfer<T>>): Readonly<Record<string, CommandBehaviour>>;
}

export function defineCommands<const P extends string, const T extends CommandTable>(plugin: P, table: T, options: CommandsOptions<T> = {}): PluginCommands<P, T> {
  const screen = options.screen;
  const needScreen = (name: string): WhenFn => {
    if (!screen) throw new Error(`${plugin}.${name}: a screen-bound row needs the table's screen`);
    return screen;
  };
  const commands: CommandContribution[] = [];
  const hotkeys: HotkeyContribution[] = [];
  const ids: Record<string, string> = {};
  for (const [name, row] of Object.entries(table) as [string, CommandRow][]) {
    const id = `${plugin}.${name}`;
    ids[name] = id;
    const boot = row.run === 'later' ? laterRun(id) : (row.run as CommandRun<Readonly<Record<string, unknown>>> | undefined);
    const when = row.when === 'screen' ? needScreen(name) : (row.when ?? options.when);
    const lazyRun = async (ctx: CommandContext, args: Readonly<Record<string, unknown>>) => {
      if (!options.lazy) throw new Error(`${id}: no run in the table and no lazy chunk`);
      const runs = (await options.lazy()) as unknown as Record<string, CommandRun<Readonly<Record<string, unknown>>>>;
      const run = runs[name];
      if (!run) throw new Error(`${id}: the lazy chunk has no run for it`);
      await run(ctx, args);
    };
    const run = boot ?? lazyRun;
    commands.push({
      id,
      titleKey: row.titleKey ?? `${plugin}:commands.${name}`,
      keywords: row.keywords,
      keywordsKey: row.keywordsKey,
      args: row.args,
      takesQuery: row.takesQuery,
      feature: row.feature,
      when,
      enabled: row.enabled,
      hiddenInPalette: row.listed === 'never' ? true : row.listed === 'screen' ? ((s) => !needScreen(name)(s)) : undefined,
      given: row.given,
      run,
    });
    const keys = row.keys === undefined ? [] : typeof row.keys === 'string' ? [row.keys] : row.keys;
    for (const k of keys) {
      hotkeys.push(
        row.scope === 'screen'
          ? { command: id, keys: k, scope: plugin, when: needScreen(name), allowInInputs: row.allowInInputs }
          : { command: id, keys: k, allowInInputs: row.allowInInputs },
      );
    }
  }
  const later = (behaviours: LaterCommands<NoInfer<T>>): Record<string, CommandBehaviour> => {
    const out: Record<string, CommandBehaviour> = {};
    for (const [name, b] of Object.entries(behaviours as Record<string, CommandBehaviour>)) {
      if (!(name in table)) throw new Error(`${plugin}.${name}: the later part gives a command the table does not have`);
      out[`${plugin}.${name}`] = b;
    }
    return out;
  };
  return { commands, hotkeys, ids: ids as PluginCommands<P, T>['ids'], later };
}

/** A row whose run is in the later part: the kernel runs that one; this one runs only if the part never gave it. */
const laterRun =
  (id: string): CommandRun<Readonly<Record<string, unknown>>> =>
  () => {
    throw new Error(`${id}: its run is in the plugin's later part, which did not give it`);
  };
