import type { ServiceLookup } from './services';

/** What a plugin's lazily loaded chunk exposes when it runs an engine (telephony, messaging). */
export interface EngineChunk<E> {
  /** The chunk's screen strings, loaded before anything of it shows. */
  uiStrings(): Promise<unknown>;
  startEngine(services: ServiceLookup): Promise<E | null>;
  stopEngine(): void;
  currentEngine(): E | null;
}

/** The engine type of a chunk. */
export type EngineOf<M> = M extends EngineChunk<infer E> ? E : never;

/**
 * One plugin chunk, imported once (with its strings) on first need: the boot manifest keeps only
 * this handle, the engine and its screens load after the first screen.
 */
export function lazyEngineChunk<M extends EngineChunk<unknown>>(importer: () => Promise<M>) {
  type E = EngineOf<M>;
  let loaded: Promise<M> | null = null;
  const load = (): Promise<M> =>
    (loaded ??= importer().then(async (m) => {
      await m.uiStrings();
      return m;
    }));
  return {
    load,
    /** Starts the engine if needed, then runs `work` with it (nothing when it cannot start). */
    async withEngine(services: ServiceLookup, work: (e: E) => unknown): Promise<void> {
      const e = (await (await load()).startEngine(services)) as E | null;
      if (e) await work(e);
    },
    /** The running engine, without loading the chunk for it. */
    async currentIfLoaded(): Promise<E | null> {
      return loaded ? ((await loaded).currentEngine() as E | null) : null;
    },
    /** Stops the engine if it was ever started (the plugin's dispose). */
    stop(): void {
      void loaded?.then((m) => m.stopEngine());
    },
  };
}
