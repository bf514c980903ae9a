import react from '@vitejs/plugin-react';
import { articlePlugin } from './article-plugin.js';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { BASE_PATH } from './src/lib/constants.js';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: BASE_PATH,
  plugins: [react(), articlePlugin()],
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
