#!/usr/bin/env node
/**
 * Fails when the built preload (out/preload/*.cjs) requires a module a sandboxed preload cannot load. With
 * `sandbox: true` the preload's `require` reaches only `electron` and the `events`, `timers` and `url` polyfills
 * (https://www.electronjs.org/docs/latest/tutorial/sandbox#preload-scripts); anything else, such as an externalized
 * `zod`, throws when the window opens and leaves the renderer without `window.anybrain`.
 *
 * Usage: node scripts/check-preload-bundle.js [--out DIR]   (default: out)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SANDBOX_MODULES = new Set(['electron', 'events', 'timers', 'url']);

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outFlag = process.argv.indexOf('--out');
const buildDir = resolve(projectRoot, outFlag === -1 ? 'out' : (process.argv[outFlag + 1] ?? ''));
const preloadDir = join(buildDir, 'preload');

if (!existsSync(preloadDir)) {
  console.error(`No preload bundle at ${preloadDir}: run \`npm run build\` first.`);
  process.exit(1);
}

let failed = false;
for (const name of readdirSync(preloadDir).filter((file) => /\.(c|m)?js$/.test(file))) {
  const source = readFileSync(join(preloadDir, name), 'utf8');
  const required = [...source.matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((match) => match[1]);
  const unavailable = [...new Set(required.filter((module) => !SANDBOX_MODULES.has(module)))];
  const imports = /^\s*import\s|^\s*export\s.+\sfrom\s/m.test(source);
  if (imports) {
    console.error(`out/preload/${name}: is an ES module; a sandboxed preload must be CommonJS.`);
    failed = true;
  }
  if (unavailable.length > 0) {
    console.error(
      `out/preload/${name}: requires ${unavailable.join(', ')}, which a sandboxed preload cannot load. ` +
        'Bundle it into the preload (electron.vite.config.ts: preload build.externalizeDeps: false).',
    );
    failed = true;
  } else if (!imports) {
    console.log(`out/preload/${name}: requires only ${[...new Set(required)].join(', ') || 'nothing'}.`);
  }
}
process.exitCode = failed ? 1 : 0;
