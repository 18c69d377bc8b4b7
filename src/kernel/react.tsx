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

/** A command bound for a button: the same object the palette and hotkeys run. */
export function useCommand(id: string): BoundCommand {
  const kernel = useKernel();
  useRegistry(kernel.commands);
  // Every change of the context, not only of the keys read during render: an enablement may read a
  // plugin's own state, which the plugin publishes as a context key for exactly this (history's
  // selection). With useSnapshot's read tracking, "Call back" stayed disabled after the auto-selection.
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
