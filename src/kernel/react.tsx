import { createContext, useCallback, useContext, useSyncExternalStore, type ReactNode } from 'react';
import { snapshot, subscribe, useSnapshot } from 'valtio';
import type { CommandContribution, CommandSource, ContextSnapshot, Enablement } from './contract';
import type { Kernel } from './kernel';
import type { Registry } from './registry';
import type { ServiceKey } from './services';

const KernelContext = createContext<Kernel | null>(null);

export function KernelProvider({ kernel, children }: { kernel: Kernel; children: ReactNode }) {
  return <KernelContext.Provider value={kernel}>{children}</KernelContext.Provider>;
}

export function useKernel(): Kernel {
  const k = useContext(KernelContext);
  if (!k) throw new Error('useKernel outside KernelProvider');
  return k;
}

export function useService<T>(key: ServiceKey<T>): T {
  return useKernel().get(key);
}

export function useMaybeService<T>(key: ServiceKey<T>): T | undefined {
  return useKernel().maybe(key);
}

/** Re-renders when the registry changes. */
export function useRegistry<T>(registry: Registry<T>): T[] {
  useSyncExternalStore(registry.subscribe, registry.getVersion);
  return registry.list();
}

/** The live context keys (re-renders on change). */
export function useContextSnapshot(): ContextSnapshot {
  return useSnapshot(useKernel().context) as ContextSnapshot;
}

export interface BoundCommand {
  command: CommandContribution | undefined;
  visible: boolean;
  enablement: Enablement;
  run(args?: Record<string, unknown>, source?: CommandSource): Promise<boolean>;
}

/**
 * Re-renders when a plugin store that command predicates read changes (PluginContext.commandsRead):
 * for anything that shows whether commands are visible or enabled (bound buttons, menus, the palette).
 */
export function useCommandState(): number {
  const kernel = useKernel();
  return useSyncExternalStore(kernel.subscribeCommandState, kernel.getCommandStateVersion);
}

/** A command bound for a button: the same object the palette and hotkeys run. */
export function useCommand(id: string): BoundCommand {
  const kernel = useKernel();
  useRegistry(kernel.commands);
  // A predicate reads the context or a store its plugin declared (commandsRead): follow both.
  useCommandState();
  // Every change of the context, not only of the keys read during render: with useSnapshot's read
  // tracking, a predicate reading a key only on some paths would not be followed.
  const context = useSyncExternalStore(
    useCallback((onChange: () => void) => subscribe(kernel.context, onChange), [kernel]),
    () => snapshot(kernel.context) as ContextSnapshot,
  );
  const command = kernel.commands.get(id)?.item;
  const ctx = kernel.commandContext('button', context);
  return {
    command,
    visible: command ? kernel.isVisible(command, context) : false,
    enablement: command ? kernel.enablement(command, ctx) : { reasonKey: 'shell:commandUnavailable' },
    run: (args = {}, source = 'button') => kernel.run(id, args, source),
  };
}
