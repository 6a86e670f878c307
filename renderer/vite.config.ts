import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer is served from a file (Electron) or from the browser host under any path, so every
// asset URL is relative (base './'). No inline scripts: the page's CSP is script-src 'self'.
// Vite runs this config under Node, which sets import.meta.dirname (this folder).
const root = import.meta.dirname;

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // ECharts is one large module; a single vendor chunk is fine for a local app.
    chunkSizeWarningLimit: 1600,
    modulePreload: { polyfill: false },
  },
});
