import react from '@vitejs/plugin-react';
import { articlePlugin } from './article-plugin.js';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { BASE_PATH } from './src/lib/constants.js';

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
            { name: 'runtime', test: /node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|@tanstack[\\/](query-core|react-query)|use-sync-external-store|cookie|set-cookie-parser)[\\/]/ },
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
