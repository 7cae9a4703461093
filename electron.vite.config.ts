import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src-main/electron/main.ts'),
          // A worker thread starts from a file of its own (src-main/core/transcripts/export-worker-runner.ts,
          // src-main/core/engine/request-body-encoder.ts).
          'export-worker': resolve(__dirname, 'src-main/core/transcripts/export-worker.ts'),
          'request-body-worker': resolve(__dirname, 'src-main/core/engine/request-body-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload can only require electron, events, timers and url: bundle everything else into it.
      externalizeDeps: false,
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'src-main/electron/preload.ts') },
        // A sandboxed preload cannot load ES modules.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: { input: { index: resolve(__dirname, 'src-renderer/index.html') } },
    },
  },
});
