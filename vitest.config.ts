import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src-main/**/*.test.ts', 'src-shared/**/*.test.ts', 'src-renderer/**/*.test.{ts,tsx}', 'e2e/fake-brains/**/*.test.ts', 'db/**/*.test.ts', 'scripts/**/*.test.{ts,js}', 'bench/**/*.test.ts'],
    environment: 'node',
    // Stylesheets read as text (`?raw`) keep their content: the HTML export embeds one, and a test reads another.
    css: { include: [/\.css\?raw$/] },
    testTimeout: 20_000,
  },
});
