/*
 * The plugin's one lazy chunk (screens, modal, API calls, runs), for the boot part: the routes, the
 * commands, the services and the panels load it from here. Only boot modules import this one: were
 * a module of the chunk to import the module that loads it, the bundler would split the plugin's
 * state out of the boot chunk into a chunk of its own once the later part shares it (issue 17).
 */
export const loadLazy = () => import('./lazy');
