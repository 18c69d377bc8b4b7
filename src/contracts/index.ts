/**
 * What plugins know of each other: typed keys of the services they offer, and the ids and paths
 * one plugin names in another's. Types and keys only, one file per owning plugin, so that no plugin
 * imports another plugin's files and no contract is a string spelled twice; the owner `provides`
 * the implementation. The kernel knows none of these (it would otherwise know every plugin's domain).
 */
export * from './contacts';
export * from './history';
export * from './meetings';
export * from './messaging';
export * from './speeddial';
export * from './telephony';
export * from './voicemail';
export * from './wizard';
