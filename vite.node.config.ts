import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import packageJson from './package.json' with { type: 'json' };

// The command line and the web host run on plain Node: bundle our code, keep every dependency external.
const external = [
  ...builtinModules,
  ...builtinModules.map((name) => `node:${name}`),
  ...Object.keys(packageJson.dependencies),
].map((name) => new RegExp(`^${name.replace(/[/.]/g, '\\$&')}(/.*)?$`));

export default defineConfig({
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'out/cli',
    emptyOutDir: true,
    minify: false,
    sourcemap: true,
    rollupOptions: {
      // The workers are entries of their own: a worker thread or helper process starts from a file
      // (export-worker-runner.ts, request-body-encoder.ts, keychain-key-store.ts).
      input: {
        anybrain: resolve(import.meta.dirname, 'src-main/cli/main.ts'),
        'export-worker': resolve(import.meta.dirname, 'src-main/core/transcripts/export-worker.ts'),
        'request-body-worker': resolve(import.meta.dirname, 'src-main/core/engine/request-body-worker.ts'),
        'keychain-helper': resolve(import.meta.dirname, 'src-main/core/secrets/keychain-helper.ts'),
      },
      external,
      output: { format: 'es', entryFileNames: '[name].js' },
    },
  },
});
