/**
 * The kernel's second entry point: what only lazily loaded code needs (a plugin's lazy strings,
 * desktop notifications, the client log's form rules). Kept out of the boot entry
 * (`kernel/index.ts`) so that the first screen does not carry it. Code outside the kernel imports the kernel through these two files only.
 */
export * from './lazyStrings';
export * from './desktopNotifications';
// The Logging panel's form rules, the ones the store applies.
export { DEFAULT_LOG_LEVEL, DEFAULT_MAX_SIZE_MB, MAX_MAX_SIZE_MB, MIN_MAX_SIZE_MB, enteredMaxSizeMb } from './clientLogStore/settings';
