import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { antdStaticStyles } from './antd-styles.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const server = 'http://127.0.0.1:8080';
const proxy = {
  '/api': { target: server, changeOrigin: true },
  '/ws': { target: server, ws: true, changeOrigin: true },
};

// react-router's package exports resolve to its development build (with dev-only checks and
// warnings) under every condition a browser build uses; the build takes its production one.
const reactRouterProduction = fileURLToPath(
  new URL('../../node_modules/react-router/dist/production/index.mjs', import.meta.url),
);

export default defineConfig(({ command }) => ({
  root,
  plugins: [react(), antdStaticStyles()],
  resolve: {
    alias: command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
  },
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Small imported images would otherwise be inlined as data: URLs, which a strict CSP refuses.
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        // entriesAware names antd's pieces after every page that shares them; the hash is enough.
        chunkFileNames: (chunk) =>
          /^(antd|core)~/.test(chunk.name)
            ? `assets/${chunk.name.slice(0, chunk.name.indexOf('~'))}-[hash].js`
            : 'assets/[name]-[hash].js',
        codeSplitting: {
          groups: [
            // Every page needs these, and they change rarely: one long-cached chunk.
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
              priority: 20,
            },
            // antd's styles built at build time (antd-styles.ts): change only with antd.
            { name: 'antd-styles', test: /virtual:antd-styles/, priority: 30 },
            // The router apart: the light sign-in and review pages (light-app.tsx) run without it.
            {
              name: 'router',
              test: /node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/,
              priority: 20,
            },
            // The shared package and its schema library, split like antd by the pages that use
            // each part: the login form validates with zod, but needs none of the console's
            // schemas (rules, notifications, downloads …).
            {
              name: 'core',
              test: /[\\/]packages[\\/]core[\\/]|node_modules[\\/]zod[\\/]/,
              priority: 15,
              entriesAware: true,
              // No merging either: a merged group of small modules (the site's API path next to
              // the data-centre ones) pulled the devices' and toilets' schemas into /login (253 KiB).
              entriesAwareMergeThreshold: 0,
            },
            // antd and its rc-component/cssinjs base, split by which pages use what so the
            // login page does not download the table, menu and dialog code of the console.
            {
              name: 'antd',
              test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[\w-]+|@emotion|stylis|dayjs|classnames|clsx|throttle-debounce|scroll-into-view-if-needed|compute-scroll-into-view|json2mq|copy-to-clipboard|toggle-selection|@babel[\\/]runtime)[\\/]/,
              priority: 10,
              entriesAware: true,
              // No merge threshold: merging small groups put console-only modules (rc-component/form,
              // input styles …) into chunks that /login loads (270 KiB gz instead of 244).
              entriesAwareMergeThreshold: 0,
            },
          ],
        },
      },
    },
  },
}));
