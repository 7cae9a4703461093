/**
 * Test support for the command line and the benchmarks: a seeded random source, so a run can be repeated, and the
 * command line built from this checkout into a folder of its own.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

/** mulberry32: a small seeded generator; the same seed gives the same numbers on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * Where a run builds its command line: `out/<name>-<pid>`. Inside the checkout, so the bundle's external imports
 * resolve from its node_modules; a folder per process, so parallel runs never share one.
 */
export function cliBuildFolder(name: string): string {
  return join(REPO_ROOT, 'out', `${name}-${process.pid}`);
}

/** Builds the command line from this checkout into `folder` (its entry is `anybrain.js`). */
export function buildCliInto(folder: string): void {
  const vite = join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(
    process.execPath,
    [vite, 'build', '--config', 'vite.node.config.ts', '--outDir', folder, '--emptyOutDir', '--logLevel', 'error'],
    { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 },
  );
  if (result.status !== 0) throw new Error(`Building the command line failed:\n${result.stdout}\n${result.stderr}`);
}
