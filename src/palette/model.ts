import type { TFunction } from 'i18next';
import type { ArgOption, CommandArgSpec, CommandContribution, ContextSnapshot, Enablement, EntityText, Kernel, PaletteEntity } from '../kernel';
import { PaletteMatcher, type IndexEntry } from './matcher';

/** An entity as the palette lists it: its words translated. */
export interface ListedEntity extends Omit<PaletteEntity, 'label' | 'keywords'> {
  label: string;
  keywords?: readonly string[];
}

/**
 * `area`: the plugin's name, given when another listed command has the same title ("Mark all read"
 * is voicemail's and chat's), so that the two rows can be told apart.
 */
export type PaletteRow =
  | { key: string; kind: 'command'; command: CommandContribution; title: string; area?: string; enablement: Enablement; recent: boolean }
  | { key: string; kind: 'entity'; entity: ListedEntity; kindLabel: string }
  | { key: string; kind: 'action'; command: CommandContribution; title: string; area?: string; args: Readonly<Record<string, unknown>>; enablement: Enablement }
  | { key: string; kind: 'option'; option: ArgOption }
  | { key: string; kind: 'freeText'; text: string; error: string | null };

export type PalettePage =
  | { kind: 'root' }
  | { kind: 'arg'; command: CommandContribution; argIndex: number; args: Record<string, unknown> }
  | { kind: 'actions'; entity: ListedEntity };

type RootRef = { kind: 'command'; command: CommandContribution } | { kind: 'entity'; entity: ListedEntity; kindKey: string; provider: string };

/** At most this many "verb object" rows ("Call ▸ Bob Martinez") lead the results. */
const VERB_ROWS = 8;
/** What t() gives back for a key without a string: the key is not loaded (yet). */
const MISSING = '\u0000missing';

/** The entity matcher of the last opening: the next opening reuses its prepared text when the entities are the same. */
let lastEntityMatcher: PaletteMatcher<RootRef> | null = null;

/**
 * A provider's entities as an opening listed them, for the next opening: while the provider gives
 * the same items array (the contacts provider keeps one per directory) in the same language, its
 * 50,000 entities are not listed and joined into texts again (issue 18: that was most of an
 * opening's time, and of the first keystroke's when the opening was still building).
 */
interface ListedProvider {
  items: readonly PaletteEntity[];
  language: string;
  listed: ListedEntity[];
  entries: IndexEntry<RootRef>[];
  standing: [string, { entity: ListedEntity; kindKey: string }][];
}
const listedProviders = new Map<string, ListedProvider>();

/** The searchable index of one palette opening: every visible command and every provider's entities. */
export class PaletteIndex {
  /*
   * Commands and entities are matched apart: a few dozen commands can always afford full ranking
   * and out-of-order terms, and come first; tens of thousands of entities get the cheaper paths.
   */
  readonly commandMatcher: PaletteMatcher<RootRef>;
  readonly entityMatcher: PaletteMatcher<RootRef>;
  readonly commands: CommandContribution[];
  /** Entities left out because their strings are not loaded yet; the palette indexes again when strings arrive. */
  readonly waiting: number;
  private readonly titles = new Map<string, string>();
  private readonly judged = new Map<string, Enablement>();
  private readonly areas = new Map<string, string>();
  private readonly listed = new Map<string, readonly ListedEntity[]>();
  /** Entities that stand for a whole query (`standsFor`), with the name of their kind. */
  private readonly standing = new Map<string, { entity: ListedEntity; kindKey: string }>();

  constructor(
    private readonly kernel: Kernel,
    readonly context: ContextSnapshot,
    private readonly t: TFunction,
    /** The language `t` speaks (`t` itself is a new function at each opening): entities listed in another are listed again. */
    language = context.language,
  ) {
    const owners = new Map<string, string>();
    this.commands = [];
    for (const { plugin, item: c } of kernel.commands.list()) {
      if ((typeof c.hiddenInPalette === 'function' ? c.hiddenInPalette(context) : c.hiddenInPalette) || !kernel.isVisible(c, context)) continue;
      this.commands.push(c);
      owners.set(c.id, plugin);
    }
    const commandEntries: IndexEntry<RootRef>[] = [];
    const byTitle = new Map<string, CommandContribution[]>();
    for (const command of this.commands) {
      const title = t(command.titleKey);
      this.titles.set(command.id, title);
      byTitle.set(title, [...(byTitle.get(title) ?? []), command]);
      const translatedKeywords = command.keywordsKey ? String(t(command.keywordsKey, { defaultValue: '' })) : '';
      commandEntries.push({
        text: [title, translatedKeywords, ...kernel.keywordsOf(command)].join(' '),
        ref: { kind: 'command', command },
      });
    }
    for (const same of byTitle.values()) {
      if (same.length < 2) continue;
      for (const c of same) {
        const plugin = kernel.plugins.get(owners.get(c.id)!);
        if (plugin) this.areas.set(c.id, t(plugin.titleKey));
      }
    }
    const entries: IndexEntry<RootRef>[] = [];
    let waiting = 0;
    for (const { item: provider } of kernel.searchProviders.list()) {
      const items = provider.items(context);
      const kept = listedProviders.get(provider.id);
      if (kept && kept.items === items && kept.language === language) {
        this.listed.set(provider.id, kept.listed);
        for (const [k, v] of kept.standing) this.standing.set(k, v);
        for (const e of kept.entries) entries.push(e);
        continue;
      }
      // What it finds cannot even be named yet ("voicemail:title" before voicemail's strings).
      if (!this.translated({ key: provider.kindKey })) {
        waiting += items.length;
        continue;
      }
      const listed: ListedEntity[] = [];
      const own: IndexEntry<RootRef>[] = [];
      const standing: ListedProvider['standing'] = [];
      let left = 0;
      for (const item of items) {
        const entity = this.listEntity(item);
        if (!entity) {
          left++;
          continue;
        }
        listed.push(entity);
        if (entity.standsFor) standing.push([entity.standsFor, { entity, kindKey: provider.kindKey }]);
        own.push({
          text: [entity.label, entity.detail ?? '', ...(entity.keywords ?? [])].join(' '),
          ref: { kind: 'entity', entity, kindKey: provider.kindKey, provider: provider.id },
        });
      }
      waiting += left;
      this.listed.set(provider.id, listed);
      for (const [k, v] of standing) this.standing.set(k, v);
      for (const e of own) entries.push(e);
      // Only a complete listing is kept: one still waiting for strings is listed again when they come.
      if (left === 0) listedProviders.set(provider.id, { items, language, listed, entries: own, standing });
      else listedProviders.delete(provider.id);
    }
    this.waiting = waiting;
    this.commandMatcher = new PaletteMatcher(commandEntries);
    // Out-of-order over entities only for two terms ("martin alice"): permutations of more terms
    // over a large directory cost more than a keystroke may.
    this.entityMatcher = lastEntityMatcher = new PaletteMatcher(entries, { outOfOrderMaxTerms: 2, like: lastEntityMatcher });
  }

  /**
   * Judged once per command until `rejudge`: a keystroke lists many rows of the same commands, and
   * some judgements are not cheap (the notifications permission asks the browser).
   */
  enablement(command: CommandContribution): Enablement {
    let e = this.judged.get(command.id);
    if (e === undefined) this.judged.set(command.id, (e = this.kernel.enablement(command, this.kernel.commandContext('palette', this.context))));
    return e;
  }

  /** What commands read changed (a call's state, a selection): enablement is judged again. */
  rejudge(): void {
    this.judged.clear();
  }

  /** The text, or null while its key has no string (its namespace is still loading). */
  private translated(text: EntityText): string | null {
    const s = this.t(text.key, { ...text.values, defaultValue: MISSING });
    return s === MISSING ? null : s;
  }

  /** The entity with its words translated; null while some of them cannot be. Data needs no copy. */
  private listEntity(e: PaletteEntity): ListedEntity | null {
    if (typeof e.label === 'string' && (!e.keywords || e.keywords.every((k) => typeof k === 'string'))) return e as ListedEntity;
    const label = typeof e.label === 'string' ? e.label : this.translated(e.label);
    if (label === null) return null;
    const keywords: string[] = [];
    for (const k of e.keywords ?? []) {
      const word = typeof k === 'string' ? k : this.translated(k);
      if (word === null) return null;
      keywords.push(word);
    }
    return { ...e, label, keywords };
  }

  private title(command: CommandContribution): string {
    return this.titles.get(command.id) ?? this.t(command.titleKey);
  }

  private commandRow(command: CommandContribution, recent: boolean): PaletteRow {
    return { key: `cmd:${command.id}`, kind: 'command', command, title: this.title(command), area: this.areas.get(command.id), enablement: this.enablement(command), recent };
  }

  /** "Call ▸ Bob Martinez": `command` run with `value` as its first argument. */
  private verbRow(command: CommandContribution, id: string, label: string, value: unknown, enablement = this.enablement(command)): PaletteRow {
    return {
      key: `verb:${command.id}:${id}`,
      kind: 'action',
      command,
      title: `${this.title(command)} ▸ ${label}`,
      area: this.areas.get(command.id),
      args: { [command.args![0]!.name]: value },
      enablement,
    };
  }

  /** Rows of the root page. An empty query lists recent commands first, then every command A–Z. */
  root(query: string, recent: readonly string[], limit = 500): PaletteRow[] {
    const toRow = (command: CommandContribution, isRecent: boolean) => this.commandRow(command, isRecent);
    if (!query.trim()) {
      const byId = new Map(this.commands.map((c) => [c.id, c]));
      const recentCmds = recent.map((id) => byId.get(id)).filter((c): c is CommandContribution => !!c);
      const recentSet = new Set(recentCmds.map((c) => c.id));
      const others = this.commands
        .filter((c) => !recentSet.has(c.id))
        .map((c) => toRow(c, false))
        .sort((a, b) => (a.kind === 'command' && b.kind === 'command' ? a.title.localeCompare(b.title) : 0));
      return [...recentCmds.map((c) => toRow(c, true)), ...others].slice(0, limit);
    }
    const commands = this.commandMatcher.search(query, limit);
    const claimed = this.claimedRows(query);
    // "#12" is a speed-dial shortcut: entities whose numbers contain 12 are not what was asked for.
    if (claimed.length) return [...claimed, ...commands.flatMap((r) => (r.kind === 'command' ? [toRow(r.command, recent.includes(r.command.id))] : []))].slice(0, limit);
    const verbs = this.verbRows(query);
    const refs = commands.length < limit ? [...commands, ...this.entityMatcher.search(query, limit - commands.length)] : commands;
    // One translation per kind, not per row: hundreds of t() calls would cost more than the match.
    const kindLabels = new Map<string, string>();
    const kindLabel = (key: string) => kindLabels.get(key) ?? (kindLabels.set(key, this.t(key)), kindLabels.get(key)!);
    const rows: PaletteRow[] = refs.map((ref) =>
      ref.kind === 'command'
        ? toRow(ref.command, recent.includes(ref.command.id))
        : { key: `ent:${ref.entity.id}`, kind: 'entity', entity: ref.entity, kindLabel: kindLabel(ref.kindKey) },
    );
    return verbs.length ? [...verbs, ...rows].slice(0, limit) : rows;
  }

  /**
   * What an argument offers for `query`: its provider's entities, found in the index this palette
   * opening already built (no second index over 50,000 contacts per keystroke), then its own options.
   */
  private matchOptions(arg: CommandArgSpec, query: string, limit: number): ArgOption[] {
    const options: ArgOption[] = [];
    if (arg.provider) {
      const entities = query.trim()
        ? this.entityMatcher.search(query, limit * 4).flatMap((r) => (r.kind === 'entity' && r.provider === arg.provider ? [r.entity] : []))
        : (this.listed.get(arg.provider) ?? []);
      for (const e of entities.slice(0, limit)) options.push({ id: e.id, label: e.label, detail: e.detail, value: e });
    }
    if (arg.options) {
      const own = arg.options(query, this.kernel.commandContext('palette', this.context));
      const m = new PaletteMatcher(own.map((o) => ({ text: [o.label, o.detail ?? '', ...(o.keywords ?? [])].join(' '), ref: o })));
      options.push(...m.search(query, limit));
    }
    return options;
  }

  /**
   * "call bob", "message alice", "call 1002": a command's title (or one of its keywords) followed by
   * what its first argument takes, as ready rows ("Call ▸ Bob Martinez") that run it with that
   * argument, as the argument page would.
   */
  private verbRows(query: string): PaletteRow[] {
    const typed = query.trimStart();
    const lower = typed.toLocaleLowerCase();
    const rows: PaletteRow[] = [];
    for (const command of this.commands) {
      const arg = command.args?.[0];
      if (!arg) continue;
      const verb = [this.title(command), ...this.kernel.keywordsOf(command)].map((v) => v.toLocaleLowerCase()).find((v) => lower.startsWith(`${v} `));
      const rest = verb ? typed.slice(verb.length).trim() : '';
      if (!rest) continue;
      const enablement = this.enablement(command);
      if ((arg.kind === 'text' || arg.allowFreeText) && !arg.validate?.(rest)) rows.push(this.verbRow(command, `free:${rest}`, rest, rest, enablement));
      for (const o of this.matchOptions(arg, rest, VERB_ROWS)) rows.push(this.verbRow(command, o.id, o.label, o.value, enablement));
    }
    return rows.slice(0, VERB_ROWS);
  }

  /**
   * Rows of the commands whose `takesQuery` the whole query fits ("#12": "Call ▸ #12"), naming the
   * entity that stands for it when there is one ("Call ▸ #12 · Alice Nguyen (Speed dial)"); the
   * command still receives what was typed.
   */
  private claimedRows(query: string): PaletteRow[] {
    const typed = query.trim();
    const stands = this.standing.get(typed);
    const label = stands ? `${stands.entity.label} (${this.t(stands.kindKey)})` : typed;
    return this.commands.filter((c) => c.args?.[0] && c.takesQuery?.test(typed)).map((c) => this.verbRow(c, `claim:${typed}`, label, typed));
  }

  /** Rows of an argument page: the argument's options (or a provider's entities), plus what was typed. */
  argRows(arg: CommandArgSpec, query: string, limit = 500): PaletteRow[] {
    const options = this.matchOptions(arg, query, limit);
    const rows: PaletteRow[] = options.map((option) => ({ key: `opt:${option.id}`, kind: 'option', option }));
    const text = query.trim();
    if ((arg.kind === 'text' || arg.allowFreeText) && text) {
      const error = arg.validate?.(text) ?? null;
      rows.unshift({ key: `free:${text}`, kind: 'freeText', text, error: error ? this.t(error) : null });
    }
    return rows;
  }

  actionRows(entity: ListedEntity): PaletteRow[] {
    return entity.actions.flatMap((a, i) => {
      const command = this.kernel.commands.get(a.command)?.item;
      if (!command || !this.kernel.isVisible(command, this.context)) return [];
      return [{ key: `act:${i}:${a.command}`, kind: 'action' as const, command, title: this.title(command), area: this.areas.get(command.id), args: a.args ?? {}, enablement: this.enablement(command) }];
    });
  }
}

/** The first argument of `command` not yet given in `args`, or -1 when all are there. */
export function nextMissingArg(command: CommandContribution, args: Readonly<Record<string, unknown>>): number {
  return (command.args ?? []).findIndex((a) => !(a.name in args));
}
