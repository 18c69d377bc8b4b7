import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import optimizeLocales from '@react-aria/optimize-locales-plugin';
import { LANGUAGES } from './src/kernel/i18n.ts';

const ARIA = /node_modules[\\/](react-aria|react-stately|@react-aria|@react-stately|react-aria-components|@internationalized|@react-types)[\\/]/;
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
];

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
    // Two vendor chunks instead of the default dozen slivers: the libraries every screen boots with,
    // and React Aria (shared by every screen). Measured: 247.6 kB gzipped for the first screen
    // against 253.1 kB with default splitting, because small chunks compress badly and each costs
    // a request. The aria chunk also holds components that only later screens use; it is cached once.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Components the first screen (shell + history) does not use stay with the lazy screens that
            // do (selects, a player's slider, a settings switch, date pickers): they cost it nothing.
            { name: 'aria', test: (id: string) => ARIA.test(id) && !LATER_ARIA.some((r) => r.test(id)) },
            { name: 'boot', test: /node_modules[\\/](react|react-dom|scheduler|i18next|react-i18next|@tanstack[\\/](react-router|router-core|history|store|react-store|query-core|react-query)|valtio|proxy-compare|tinykeys|use-sync-external-store|clsx)[\\/]/ },
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
