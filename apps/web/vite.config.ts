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
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: true } },
  },
  preview: {
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: true } },
  },
});
