// The console's production build: static files that the gateway serves at /console (same origin as
// /admin). Output goes to dist/apps/console at the repository root, where the gateway looks for it.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const consoleRoot = fileURLToPath(new URL('.', import.meta.url));
const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

export default defineConfig({
  root: consoleRoot,
  base: '/console/',
  plugins: [react()],
  // Nothing from outside the project at run time: no CDN, no inline script (the CSP forbids both).
  build: {
    outDir: `${repositoryRoot}dist/apps/console`,
    emptyOutDir: true,
    // The polyfill would be bundled anyway, but modern Chromium needs none: keep the entry minimal.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 900,
    sourcemap: false,
  },
  server: {
    // `npx vite --config apps/console/vite.config.ts` during development: /admin goes to a local gateway.
    proxy: { '/admin': process.env.CONSOLE_DEV_GATEWAY ?? 'http://127.0.0.1:8080' },
  },
});
