import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import optimizeLocales from '@react-aria/optimize-locales-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { splitTexts } from './scripts/textParts';

import { VitePWA } from 'vite-plugin-pwa';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const server = process.env.NUMA_SERVER ?? 'http://localhost:8080';

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip -9) beside every built text file of
 * 1 KiB or more, once at build time, so the server sends them as they are by `Accept-Encoding`
 * (`@fastify/static` with `preCompressed`, apps/server/src/plugins/web.ts) and never compresses an
 * asset per request (`only`: just that folder of the output, for a second build into it). index.html is left out: the server fills it in per brand and compresses it then.
 */
export function precompress(only?: string): Plugin {
  let outDir = 'dist';
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
    );
  return {
    name: 'numa-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // last and on its own: after vite-plugin-pwa wrote the service worker in its closeBundle
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        for (const file of walk(only ? path.join(outDir, only) : outDir)) {
          if (!/\.(js|mjs|css|json|svg|txt|wasm)$/.test(file) || statSync(file).size < 1024) continue;
          const data = readFileSync(file);
          writeFileSync(
            `${file}.br`,
            brotliCompressSync(data, {
              params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length },
            }),
          );
          writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
        }
      },
    },
  };
}

/**
 * `vite build` makes the production bundle whatever NODE_ENV the shell has (issue 19 §6): Vite keeps
 * a NODE_ENV it finds, and `NODE_ENV=development npm start` (the server's own default mode) built the
 * client with React's development build (198 KiB on the login page instead of 152). The build mode
 * decides instead; `vite build --mode development` still makes a development build on purpose. Set
 * in `config`, before Vite reads NODE_ENV for `isProduction` and the `process.env.NODE_ENV` define.
 */
export function productionBuild(): Plugin {
  return {
    name: 'numa-production-build',
    apply: 'build',
    config(_config, { mode }) {
      if (mode === 'production') process.env.NODE_ENV = 'production';
    },
  };
}

/**
 * The embedded plans page's own texts (`plans.page` of the locales) are bundled only by its own
 * build (vite.plans.config.ts): the web client never shows them, so its entry (which holds the
 * English texts) does not carry them. Build only: tests read the locales whole.
 */
function withoutPlansPageTexts(): Plugin {
  return {
    name: 'numa-without-plans-page-texts',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]src[\\/]locales[\\/](en|zh)\.json$/.test(id)) return null;
      const data = JSON.parse(code) as { plans?: Record<string, unknown> };
      if (!data.plans?.page) return null;
      delete data.plans.page;
      return { code: JSON.stringify(data), map: null };
    },
  };
}

/**
 * index.html without its comments and the blank space between its tags (every first load carries
 * it; issue 22 §5 added the theme's boot script to it). `<!--app-config-->` stays: the server puts
 * the brand's config there. An inline script's own text is left as it is (its CSP hash).
 */
export function compactHtml(): Plugin {
  return {
    name: 'numa-compact-html',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        html
          .replace(/<!--(?!app-config-->)[\s\S]*?-->/g, '')
          .replace(/>\s+</g, '><')
          // line breaks inside a tag's markup; never inside a script's text
          .replace(/<[^>]*>/g, (tag) => tag.replace(/\s*\n\s*/g, ' '))
          .trim(),
    },
  };
}

/** libphonenumber and its one user (the contract's phone.ts): a chunk of their own. */
const phone = /[\\/]libphonenumber-js[\\/]|[\\/]contract[\\/]src[\\/]phone\.ts$/;
/** What the signed-in app loads on any screen (App.tsx, AppShell.tsx), with all it imports. */
const shell =
  /[\\/]src[\\/](app[\\/](AppShell\.tsx|chats\.ts)|components[\\/]QueryScope\.tsx|lib[\\/](socket|balance|query|phone)\.ts|features[\\/]chats[\\/]state[\\/]service\.ts|features[\\/]contacts[\\/]phone\.ts)$/;
/**
 * Small react-aria controls the lazy screens share (search field, checkbox, radio group, the focus
 * scope and useEvent), and the app's native select field: one chunk, not ten (the radio group, focus
 * scope and useEvent since issue 24 §3: every screen with a form uses them, the contacts screen 4 KiB
 * it does not need).
 */
const controls =
  /[\\/](react-aria[\\/]dist[\\/]private[\\/](intl[\\/]searchfield|searchfield|toggle|checkbox|radio|visually-hidden|utils[\\/](useSlot|useEvent|shadowdom[\\/]ShadowTreeWalker)\.|focus[\\/]FocusScope\.|i18n[\\/]useLocalizedStringFormatter\.)|react-stately[\\/]dist[\\/]private[\\/](toggle|searchfield|radio|checkbox)|react-aria-components[\\/]dist[\\/]private[\\/](SearchField|Checkbox|RadioGroup|SharedElementTransition)\.|@internationalized[\\/]string[\\/])|[\\/]src[\\/]components[\\/]SelectField\.tsx$/;
/**
 * react-aria's collections, selection and tabs, with TanStack Query's infinite query: what the four
 * histories, the verification and the numbers screens list with, which the bundler split into five
 * chunks (issue 24 §3).
 */
const lists =
  /[\\/]react-aria[\\/]dist[\\/]private[\\/](utils[\\/](constants|keyboard|isScrollable|getScrollParents|scrollIntoView|useDescription|useUpdateLayoutEffect|inertValue|animation)\.|focus[\\/](virtualFocus|useHasTabbableChild)\.|collections[\\/]|selection[\\/](utils|useTypeSelect|useSelectableCollection|useSelectableItem)\.|interactions[\\/]useLongPress\.|tabs[\\/])|[\\/]react-aria-components[\\/]dist[\\/]private[\\/](Collection|SelectionIndicator|Tabs)\.|[\\/]react-stately[\\/]dist[\\/]private[\\/](collections[\\/](getChildNodes|CollectionBuilder|useCollection)\.|selection[\\/]|list[\\/]|tabs[\\/])|[\\/](infiniteQueryObserver|useInfiniteQuery)\.js$/;
/**
 * react-aria's select, list box, popover, dialog and menu: the pieces the pickers and overlays of
 * the numbers and verification screens (and the chat's menus and dialogs)
 * use, which the bundler split into six chunks by the sets of screens using each one; the numbers
 * screen's first load fetched 29 scripts (issue 24 §3). One chunk: every screen that opens a select
 * or a dialog uses nearly all of it, the others none of it (docs/decisions.md).
 */
const pickers =
  /[\\/]react-aria-components[\\/]dist[\\/]private[\\/]((DragAndDrop|ListBox|Header|Separator|Heading|OverlayArrow|Popover|Keyboard|Menu|Dialog|Select|intlStrings)\.|intl[\\/])|[\\/]react-aria[\\/]dist[\\/]private[\\/](listbox|overlays|menu|dialog|select|intl[\\/](overlays|menu))[\\/]|[\\/]react-aria[\\/]dist[\\/]private[\\/](selection[\\/](DOMLayoutDelegate|ListKeyboardDelegate|useSelectableList)|i18n[\\/](useCollator|useListFormatter)|utils[\\/](getScrollParent|useLoadMoreSentinel|useResizeObserver|runAfterKeyboard)|interactions[\\/](useInteractOutside|useContextMenu|PressResponder))\.|[\\/]react-stately[\\/]dist[\\/]private[\\/]((overlays|menu|tree|select)[\\/]|collections[\\/]getItemCount\.)/;
/** The verification and numbers areas' helpers their panels share: one chunk each, not three. */
const codesArea = /[\\/]src[\\/]features[\\/]codes[\\/](intent\.ts|Subscribe\.tsx|api[\\/][^\\/]+\.ts)$/;
const numbersArea = /[\\/]src[\\/]features[\\/]numbers[\\/]api[\\/][^\\/]+\.ts$/;
/** TanStack Virtual and the app's one hook over it (chats, messages, contacts, emoji): one chunk. */
const virtualLists =
  /[\\/](@tanstack[\\/](react-virtual|virtual-core)[\\/]|src[\\/]lib[\\/]useRowsVirtualizer\.ts$)/;
/** The contacts screen and the helpers it shares with its dialogs. */
const contacts = /[\\/]src[\\/]features[\\/]contacts[\\/](logic\.ts|useDefaultTelCode\.ts)$/;

export default defineConfig({
  plugins: [
    productionBuild(),
    react(),
    // react-aria ships its screen-reader strings in 34 languages; the app speaks two (App.tsx's
    // AriaLocale passes 'en-US' or 'zh-CN'), so the other 32 are left out of every chunk
    optimizeLocales.vite({ locales: ['en-US', 'zh-CN'] }),
    withoutPlansPageTexts(),
    splitTexts(),
    compactHtml(),
    // the service worker (issue 23 §2): our own source (sw/sw.ts: push and notification clicks
    // besides Workbox's precache), with the build's hashed scripts and styles injected as its
    // precache list. No manifest here: the server answers each brand's own (lib/webApp.ts); no
    // register script: the page registers the worker itself after load (src/lib/pwa.ts)
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      manifest: false,
      injectRegister: false,
      injectManifest: {
        globPatterns: ['assets/**/*.{js,css}'],
        // emojibase's data (two chunks of about 550 KB): only the emoji picker loads it, from the
        // network and the HTTP cache as before
        globIgnores: ['assets/compact-*.js'],
        // the largest chunk (the shell with libphonenumber's metadata) is under 1 MiB
        maximumFileSizeToCacheInBytes: 2 * 1024 * 1024,
        minify: true,
        sourcemap: false,
      },
    }),
    // after the service worker is written, so sw.js gets its compressed files too
    precompress(),
  ],
  define: { __WEB_VERSION__: JSON.stringify(version) },
  // the hidden source maps stay on the server's disk for debugging; no page points at them
  build: {
    outDir: 'dist',
    sourcemap: 'hidden',
    chunkSizeWarningLimit: 900,
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // everything the entry imports statically, zod and react-dom included, is one chunk (not
            // 15); its modules run in import order, so main.tsx's first import (src/lib/zod.ts, zod's
            // `jitless` setting) runs before the contract builds its first object schema, which is
            // when zod probes `new Function` (a CSP violation Chrome reports) unless jitless is on.
            // libphonenumber stays out: only the phone tab and the signed-in screens use it
            {
              name: 'initial',
              tags: ['$initial'],
              includeDependenciesRecursively: false,
              test: (id) => !phone.test(id),
              priority: 2,
            },
            { name: 'phone', test: phone, priority: 1 },
            { name: 'shell', test: shell, priority: 0 },
            { name: 'controls', test: controls, includeDependenciesRecursively: false },
            { name: 'contacts', test: contacts, includeDependenciesRecursively: false },
            { name: 'pickers', test: pickers, includeDependenciesRecursively: false },
            { name: 'lists', test: lists, includeDependenciesRecursively: false },
            { name: 'virtual', test: virtualLists, includeDependenciesRecursively: false },
            { name: 'codes', test: codesArea, includeDependenciesRecursively: false },
            { name: 'numbers', test: numbersArea, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/web': { target: server, changeOrigin: false },
      '/dev': { target: server, changeOrigin: false },
      '/media': { target: server, changeOrigin: false },
      '/webchat': { target: server, ws: true, changeOrigin: false },
    },
  },
});
