/*
 * The plugin's one lazy chunk (strings, API calls, player, screen, runs), for the boot part. Its own
 * module, not a dynamic import in the command table: the bundler then keeps the plugin's state in the
 * boot chunk although the later part shares it (issue 17).
 */
export const loadLazy = () => import('./lazy');
