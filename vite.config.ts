// Vite builds the dashboard (src/surfaces/web/app) into dist/web; the HTTP server serves it at `/` and `/assets/<file>`.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('src/surfaces/web/app/', import.meta.url)),
  // Absolute asset URLs: the page is always `/`, its files always `/assets/<name>-<hash>.<ext>` (static-dashboard.ts).
  base: '/',
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('dist/web/', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // Everything is bundled: no CDN, nothing fetched at run time; Cytoscape alone is ~440 kB minified.
    chunkSizeWarningLimit: 600,
    // Chromium 120+ and current Firefox/Safari: the dashboard is for the operator's own browser.
    target: 'es2022',
    sourcemap: false,
  },
});
