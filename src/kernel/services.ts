/**
 * Typed keys for services shared between plugins. A plugin never imports another plugin's files:
 * it asks the kernel for `ctx.services.get(TelephonyApi)` with a key declared in src/kernel.
 */
export interface ServiceKey<T> {
  readonly id: string;
  /** Phantom field: carries T for type inference only. */
  readonly _type?: T;
}

export function serviceKey<T>(id: string): ServiceKey<T> {
  return { id };
}

export interface ServiceLookup {
  /** The service, or throws if nothing provides it (declare it in `requires` to have boot check that). */
  get<T>(key: ServiceKey<T>): T;
  /** The service if some plugin provides it, else undefined (for optional cooperation). */
  maybe<T>(key: ServiceKey<T>): T | undefined;
  has(key: ServiceKey<unknown>): boolean;
}
