import react from '@vitejs/plugin-react';
import { articlePlugin } from './article-plugin.js';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Rolldown } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { BASE_PATH } from './src/lib/constants.js';

const ENTRY = fileURLToPath(new URL('./src/main.tsx', import.meta.url));
const SRC = fileURLToPath(new URL('./src/', import.meta.url));
/** The libraries every page runs on. (Through the contract's index the entry's graph also reaches zod, which it never runs.) */
const RUNTIME_LIBRARIES = /node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|@tanstack[\\/](query-core|react-query)|use-sync-external-store|cookie|set-cookie-parser|dayjs)[\\/]/;

/**
 * Names `chunk` what main.tsx reaches through static imports, of the console's own modules and of the libraries
 * every page runs on; the rest nothing (left to the other groups and to rolldown): a group by reachability, which
 * no option of rolldown's expresses. The graph is walked once per build. Not the entry itself: its top-level
 * await would hold this chunk's evaluation, and with it every chunk importing from it, such as the language
 * pack that await fetches.
 */
function entryGraph(chunk: string) {
  let graph: Set<string> | null = null;
  return (id: string, ctx: Rolldown.ChunkingContext): string | null => {
    if (!graph) {
      graph = new Set();
      const queue = [ENTRY];
      for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
        if (graph.has(next)) continue;
        graph.add(next);
        queue.push(...(ctx.getModuleInfo(next)?.importedIds ?? []));
      }
    }
    return id !== ENTRY && graph.has(id) && (id.startsWith(SRC) || RUNTIME_LIBRARIES.test(id)) ? chunk : null;
  };
}

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
            // Everything the entry imports statically, libraries and the console's own modules: every first load
            // fetches all of it, and as a dozen files of a few hundred bytes each it took as many requests.
            { name: entryGraph('runtime') },
            {
              name: 'antd-core',
              test: /node_modules[\\/](@ant-design[\\/](cssinjs|cssinjs-utils|colors|fast-color|icons[\\/]es[\\/](components|utils))|@rc-component[\\/](util|motion|portal|resize-observer|trigger|context)|antd[\\/]es[\\/](_util|config-provider|theme|style|locale|version)|@babel[\\/]runtime|stylis|@emotion|classnames|clsx)[\\/]/,
            },
            // Every icon in one file: each was a chunk of about 1 kB of its own, twenty on Account Home, and a
            // phone's browser fetches six at a time over HTTP/1.1 (docs/console.md#first-load).
            { name: 'icons', test: /node_modules[\\/]@ant-design[\\/](icons[\\/]es[\\/]icons|icons-svg)[\\/]/ },
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
