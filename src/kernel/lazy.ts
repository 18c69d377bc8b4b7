/**
 * The kernel's second entry point: what only lazily loaded code needs (a plugin's lazy strings,
 * desktop notifications). Kept out of the boot entry (`kernel/index.ts`) so that the first screen
 * does not carry it. Code outside the kernel imports the kernel through these two files only.
 */
export * from './lazyStrings';
export * from './desktopNotifications';
