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
      input: { anybrain: resolve(import.meta.dirname, 'src-main/cli/main.ts') },
      external,
      output: { format: 'es', entryFileNames: '[name].js' },
    },
  },
});
