import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import optimizeLocales from '@react-aria/optimize-locales-plugin';
import { fileURLToPath } from 'node:url';
import { LANGUAGES } from './src/kernel/i18n.ts';

const ARIA = /node_modules[\\/](react-aria|react-stately|@react-aria|@react-stately|react-aria-components|@internationalized|@react-types)[\\/]/;
/** A plugin's boot strings file (`src/plugins/<id>/locales/de.json`) or a language's module of them all (`src/plugins/index/bootStrings/de.ts`), and its language. */
const PLUGIN_LOCALE = /[\\/]src[\\/]plugins[\\/](?:[^\\/]+[\\/]locales[\\/]([a-z]{2})\.json|index[\\/]bootStrings[\\/]([a-z]{2})\.ts)$/;
const LATER_ARIA = [
  /react-aria-components[\\/]dist[\\/]private[\\/](intlStrings|Dialog|Heading|Keyboard|Menu|Modal|OverlayArrow|Popover|Separator|Autocomplete|Breadcrumbs|Calendar|Color\w*|ComboBox|Date\w*|Disclosure|DragAndDrop|DropZone|FileTrigger|Form|GridLayout|HiddenDateInput|ListBox|Meter|NumberField|RadioGroup|Select|Slider|Switch|Table|Tabs|TagGroup|Toolbar|Tooltip|Tree)\./,
  // String tables of components the first screen does not use: drag and drop's alone is ~10 kB gzip.
  /react-aria-components[\\/]dist[\\/]private[\\/]intl[\\/]/,
  // The frame's menus and every overlay load after the first screen (shell/FrameMenus.tsx, dialogs).
  // Checked by building without the aria group: none of these is in a chunk the first screen loads.
  /react-aria[\\/]dist[\\/]private[\\/](dialog|menu|intl[\\/](menu|overlays|dnd))[\\/]/,
  /react-aria[\\/]dist[\\/]private[\\/]overlays[\\/](?!PortalProvider)/,
  /react-aria[\\/]dist[\\/]private[\\/](interactions[\\/](PressResponder|useContextMenu|useInteractOutside)|utils[\\/](animation|runAfterKeyboard|useViewportSize)|i18n[\\/]useListFormatter)\./,
  /react-stately[\\/]dist[\\/]private[\\/](menu|overlays|tree)[\\/]/,
  /react-(aria|stately)[\\/]dist[\\/]private[\\/](autocomplete|breadcrumbs|calendar|color|combobox|datepicker|disclosure|dnd|listbox|meter|numberfield|radio|select|slider|spinbutton|steplist|switch|table|tabs|tag|tokenfield|toolbar|tooltip|tree)[\\/]/,
  /@internationalized[\\/]date[\\/]/,
  // String tables of the screens' date, time, number and combo fields (the meetings' modal, the
  // find-me times): the first screen needs only the grid's and the search field's. Measured by
  // building without the aria group (issue 17): each of these otherwise rode in the aria chunk.
  /react-(aria|stately)[\\/]dist[\\/]private[\\/]intl[\\/](?!(grid|searchfield)[\\/])/,
  /react-aria-components[\\/]dist[\\/]private[\\/]Link\./,
  /react-aria[\\/]dist[\\/]private[\\/](i18n[\\/](useDateFormatter|useFilter)|link[\\/]useLink|utils[\\/]useDeepMemo)\./,
  /@internationalized[\\/]number[\\/]dist[\\/]private[\\/]NumberParser\./,
  /react-stately[\\/]dist[\\/]private[\\/]list[\\/]useSingleSelectListState\./,
  // Collections, selection and the virtualizer: the first screen's list (history) is the product's
  // own grid (ui/VirtualGridList), so only lazy screens' lists and menus use these.
  /react-aria-components[\\/]dist[\\/]private[\\/](GridList|Virtualizer|Collection|Checkbox|ToggleButton\w*)\./,
  /react-aria[\\/]dist[\\/]private[\\/](collections|selection|gridlist|grid|virtualizer|checkbox|live-announcer)[\\/]/,
  /react-stately[\\/]dist[\\/]private[\\/](collections|selection|list|grid|virtualizer|layout|checkbox|toggle|form)[\\/]/,
  // The toasts' region loads as the frame mounts, after the first screen (shell/boot.tsx); their queue stays.
  /react-aria-components[\\/]dist[\\/]private[\\/]Toast\./,
  // The grid's strings (React Aria's grid lists of the lazy screens; history's list is the product's
  // own grid) and what only toggle-button groups and collections use: measured out of the first screen.
  /react-aria[\\/]dist[\\/]private[\\/]intl[\\/]grid[\\/]/,
  // Found by building without the aria group (default chunking): none of these reaches a chunk the first screen loads.
  /react-aria[\\/]dist[\\/]private[\\/](utils[\\/](constants|keyboard|useEvent|useUpdateEffect|isScrollable|getScrollParents?|scrollIntoView|useDescription|useUpdateLayoutEffect|useResizeObserver)|focus[\\/]virtualFocus|interactions[\\/]useLongPress|overlays[\\/]PortalProvider|button[\\/]useToggleButton)\./,
  /react-aria-components[\\/]dist[\\/]private[\\/](SharedElementTransition|SelectionIndicator|Header)\./,
  /react-aria[\\/]dist[\\/]private[\\/](separator|button[\\/]useToggleButtonGroup|focus[\\/](useHasTabbableChild|FocusScope)|utils[\\/](useLoadMoreSentinel|inertValue|shadowdom[\\/]ShadowTreeWalker)|i18n[\\/]useCollator)/,
  /react-aria[\\/]dist[\\/]private[\\/](toast|landmark|intl[\\/]toast)[\\/]/,
];

type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };
const LOGIN_PAGE = fileURLToPath(new URL('./src/shell/LoginPage.tsx', import.meta.url));
const ARIA_INDEX = /[\\/]react-aria-components[\\/]dist[\\/]exports[\\/]index\.mjs$/;
const loginModules = new WeakMap<object, Set<string>>();

/**
 * Every module the login page imports statically, directly or not (its lazy parts excluded). Its
 * React Aria modules make a chunk of their own, kept out of the first screen's `aria` chunk, so that
 * the login page loads only the React Aria it uses. It imports React Aria by component: through the
 * package's index it would reach every component, and the build stops if it does.
 */
function loginModulesOf(graph: ModuleGraph): Set<string> {
  const root = LOGIN_PAGE;
  const info = graph.getModuleInfo(root);
  if (!info) throw new Error('vite.config.ts: the login page (src/shell/LoginPage.tsx) is not in the build');
  const cached = loginModules.get(info);
  if (cached) return cached;
  const seen = new Set<string>();
  const visit = (id: string, from: string) => {
    if (seen.has(id)) return;
    if (ARIA_INDEX.test(id)) throw new Error(`vite.config.ts: the login page reaches React Aria's index (through ${from}); import its components by path (react-aria-components/Button)`);
    seen.add(id);
    for (const dep of graph.getModuleInfo(id)?.importedIds ?? []) visit(dep, id);
  };
  visit(root, root);
  loginModules.set(info, seen);
  return seen;
}

const apiPort = Number(process.env.UC_API_PORT ?? 8080);
const api = `http://127.0.0.1:${apiPort}`;
/** /login and /logout are both API calls (POST) and app pages (GET of HTML): pages stay with Vite. */
const apiOrPage = {
  target: api,
  bypass: (req: { method?: string; headers: Record<string, string | string[] | undefined> }) =>
    req.method === 'GET' && String(req.headers.accept ?? '').includes('text/html') ? '/index.html' : undefined,
};

export default defineConfig({
  plugins: [
    react(),
    // React Aria ships strings for ~35 locales; keep only the languages this product offers.
    optimizeLocales.vite({ locales: [...LANGUAGES] }),
  ],
  server: {
    host: '127.0.0.1',
    port: 5173,
    // The dev server forwards the API so the browser sees one origin, as in production.
    proxy: {
      '/v1': api,
      '/v2': api,
      '/login': apiOrPage,
      '/logout': apiOrPage,
    },
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    // The bundle benchmark reads the chunk graph from the manifest.
    manifest: true,
    chunkSizeWarningLimit: 600,
    // A few vendor chunks instead of the default dozens of slivers, because small chunks compress
    // badly and each costs a request (measured before the login page was split off: 247.6 kB gzipped
    // for the first screen against 253.1 with default splitting; after it, 234.7 against 244.9):
    // React and i18next (both pages), the React Aria the login page uses (both pages), the app's
    // libraries, and the rest of React Aria the first screen uses.
    rolldownOptions: {
      // The kernel's, the contracts' and the wire's modules only declare (no module runs code for its
      // effect when imported), so a chunk that uses one of their exports does not take the others:
      // the login page imports the API client and translations through the kernel's entry point
      // without the rest of the kernel, and only the schemas it uses.
      treeshake: { moduleSideEffects: [{ test: /[\\/]src[\\/](kernel|contracts|wire)[\\/]/, sideEffects: false }] },
      // janus.js's UMD wrapper tests `typeof module` before it takes the browser's branch: in a
      // browser `module` is undefined, so the warning about it says nothing here.
      onLog(level, log, handler) {
        if (log.code === 'COMMONJS_VARIABLE_IN_ESM' && log.id?.includes('janus-gateway')) return;
        handler(level, log);
      },
      output: {
        codeSplitting: {
          groups: [
            // Both pages: React and the translations.
            { name: 'react', priority: 3, test: /node_modules[\\/](react|react-dom|scheduler|i18next|react-i18next|clsx)[\\/]/ },
            // What the login page uses of React Aria (its form, buttons and locale); the first screen uses it too.
            { debugName: 'aria-login', name: (id: string, graph: ModuleGraph) => (ARIA.test(id) && loginModulesOf(graph).has(id) ? 'aria-login' : null), priority: 2, test: ARIA },
            // Each language's boot strings of every plugin in one chunk (bench/bundle.ts names it): all are
            // needed before the first screen, and one file instead of fifteen compresses better and is one
            // request. The shell's stay apart: the login page needs only them.
            { debugName: 'plugins-locale', name: (id: string) => { const m = PLUGIN_LOCALE.exec(id); const lang = m?.[1] ?? m?.[2]; return lang ? `plugins-locale-${lang}` : null; }, priority: 3, test: PLUGIN_LOCALE },
            // Small modules the boot and the lazy parts share (the contracts, the command-table helper, the
            // chunk loader, two rule tables): one chunk rather than a sliver each (each sliver costs its own
            // gzip header and import glue; measured 199.3 -> 198.2, the login page unchanged). Modules the
            // login page or the entry also use stay out: a group takes its modules' imports with it.
            { name: 'shared', test: /[\\/]src[\\/](contracts[\\/]|wire[\\/](roles|contactGroups)\.ts|kernel[\\/](defineCommands|lazyEngine)\.ts)/ },
            // The app's libraries.
            // Less what only lazy screens use (a form's leave guard) or nothing here does (scroll restoration's
            // server script), found by building without the groups: none reaches a first-screen chunk.
            {
              name: 'boot',
              test: (id: string) =>
                /node_modules[\\/](@tanstack[\\/](react-router|router-core|history|store|react-store)|valtio|proxy-compare|tinykeys)[\\/]/.test(id) &&
                !/[\\/](ScriptOnce|scroll-restoration|useBlocker|scroll-restoration-script[\\/]client)\.js$/.test(id),
            },
            // The rest of React Aria that the first screen (shell + history) uses. Components it does not use stay with
            // the lazy screens that do (selects, a player's slider, a settings switch, date pickers): they cost it nothing.
            { name: 'aria', priority: 1, test: (id: string) => ARIA.test(id) && !LATER_ARIA.some((r) => r.test(id)) },
          ],
        },
      },
    },
  },
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx', 'src/**/*.test.ts', 'src/**/*.test.tsx', 'server/**/*.test.ts'],
    // Real-server integration tests have their own config and servers (vitest.services.config.ts).
    exclude: ['tests/services/**', 'node_modules/**'],
    // Unit tests build the API with the product's port plan: never provision into a product ejabberd
    // that happens to run, nor take the product's DTMF event port.
    env: { UC_XMPP_PROVISIONING: 'off', UC_DTMF_EVENTS: 'off' },
    environment: 'node',
    setupFiles: ['tests/setup/testing-library.ts'],
    testTimeout: 20000,
    hookTimeout: 60000,
  },
});
