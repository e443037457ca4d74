// Bundles the compiled CLI into dist/bundle: one module graph to load instead of hundreds of files
// cuts `trove mcp` cold start roughly in half. Heavy parts (HTML parsing, PDF, language data) stay in
// chunks loaded on first use. Native and browser packages stay external.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// Chunk names carry content hashes: start empty so old chunks do not pile up.
rmSync('dist/bundle', { recursive: true, force: true });

// zod re-exports every locale as a namespace, which defeats tree shaking; trove's messages are English
// (zod's default, set by its classic entry from locales/en.js directly), so the other 40 stay out.
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes('/node_modules/zod/') ? { path: 'zod-locales', namespace: 'trove-stub' } : undefined);
    b.onLoad({ filter: /.*/, namespace: 'trove-stub' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

await build({
  entryPoints: { main: 'dist/cli/main.js', worker: 'dist/ingest/extract/worker.js' },
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  keepNames: false,
  legalComments: 'linked',
  external: ['better-sqlite3', 'sqlite-vec', 'playwright-core'],
  // CommonJS dependencies inside an ES module bundle still call require().
  banner: { js: "import { createRequire as __troveRequire } from 'node:module'; const require = __troveRequire(import.meta.url);" },
  plugins: [englishOnlyZod],
  logLevel: 'warning',
});
