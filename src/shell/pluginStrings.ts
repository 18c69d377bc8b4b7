import { BootError, type Kernel } from '../kernel';
import { i18nLoader } from './i18nSetup';

/** The loaded plugins' strings namespaces. One without a loader stops the boot: its strings would show as keys. */
export function addPluginStrings(kernel: Kernel): void {
  const namespaces = kernel.i18nNamespaces.list().map((n) => n.item);
  const missing = namespaces.filter((n) => !n.load).map((n) => `i18n namespace "${n.namespace}" has no loader (is its plugin listed in src/plugins/index.ts?)`);
  if (missing.length) throw new BootError(missing);
  for (const n of namespaces) i18nLoader.addNamespace(n.namespace, n.load!);
}
