import react from '@vitejs/plugin-react';
import { articlePlugin } from './article-plugin.js';
import { graphOf, isConsoleModule, srcPath } from './chunk-groups.js';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { BASE_PATH } from './src/lib/constants.js';

const ENTRY = srcPath('main.tsx');
/** The libraries every page runs on. (Through the contract's index the entry's graph also reaches zod, which it never runs.) */
const RUNTIME_LIBRARIES = /node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|@tanstack[\\/](query-core|react-query)|use-sync-external-store|cookie|set-cookie-parser|dayjs)[\\/]/;
const ANTD_PARTS = /node_modules[\\/](antd|@rc-component|rc-[^\\/]+)[\\/]/;
const entryGraph = graphOf(['main.tsx']);
const layoutGraph = graphOf(['app/layout/app-layout.tsx']);
const loginGraph = graphOf(['features/auth/pages/login-page.tsx']);

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: BASE_PATH,
  plugins: [
    react(),
    articlePlugin(),
    // Brotli and gzip copies beside each text asset, made once at build; the server picks one by
    // Accept-Encoding (http/spa.ts). Under 1 KB compression saves less than its headers cost.
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 }),
  ],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Fewer, larger files where every page loads them together (docs/console.md#first-load): what every
        // page runs on, and the core every page drawn with antd runs on (theme, CSS-in-JS, motion, popups).
        advancedChunks: {
          groups: [
            // What the entry reaches, of the console's own modules and the libraries every page runs on (not the
            // entry itself: its top-level await would hold this chunk's evaluation, and with it that of every chunk
            // importing from it, such as the language pack that await fetches).
            {
              debugName: 'runtime',
              name: (id, ctx) => (id !== ENTRY && entryGraph(ctx).has(id) && (isConsoleModule(id) || RUNTIME_LIBRARIES.test(id)) ? 'runtime' : null),
            },
            {
              name: 'antd-core',
              test: /node_modules[\\/](@ant-design[\\/](cssinjs|cssinjs-utils|colors|fast-color|icons[\\/]es[\\/](components|utils))|@rc-component[\\/](util|motion|portal|resize-observer|trigger|context)|antd[\\/]es[\\/](_util|config-provider|theme|style|locale|version)|@babel[\\/]runtime|stylis|@emotion|classnames|clsx)[\\/]/,
            },
            // Every icon in one file: each was a chunk of about 1 kB of its own, twenty on Account Home, and a
            // phone's browser fetches six at a time over HTTP/1.1 (docs/console.md#first-load).
            { name: 'icons', test: /node_modules[\\/]@ant-design[\\/](icons[\\/]es[\\/]icons|icons-svg)[\\/]/ },
            // The login page's own modules, and the layout with the antd parts it draws with, which every signed-in
            // page loads. In that order: a group takes what its modules import too, unless an earlier group has it,
            // so what both reach (the brand logo, the tips) comes with the login page, and login loads no antd.
            { debugName: 'login', name: (id, ctx) => (loginGraph(ctx).has(id) && isConsoleModule(id) ? 'login' : null) },
            {
              debugName: 'layout',
              name: (id, ctx) => (layoutGraph(ctx).has(id) && (isConsoleModule(id) || ANTD_PARTS.test(id)) ? 'layout' : null),
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: true } },
  },
  preview: {
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: true } },
  },
});
