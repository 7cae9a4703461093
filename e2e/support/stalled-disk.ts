/**
 * A disk whose sync stalls, for the host under test: stall-fsync.c compiled into a shared library and preloaded into
 * `anybrain serve`, holding every fsync of a file in its data folder while the test says the disk is stalled.
 * Linux only: it needs a C compiler (Debian: gcc, which the native modules' build already needs).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SOURCE = resolve(import.meta.dirname, 'stall-fsync.c');

export interface StalledDisk {
  /** The host's environment: preload the shim, watch `dataDir` (only the files whose names end with `onlyEnding`, when given). */
  environment(dataDir: string, onlyEnding?: string): Record<string, string>;
  /** From now on every sync of a file in the data folder waits. */
  stall(): void;
  /** Lets the syncs through. */
  release(): void;
  dispose(): void;
}

function compiler(): string {
  for (const candidate of ['cc', 'gcc', 'clang']) {
    try {
      execFileSync('sh', ['-c', `command -v ${candidate}`], { stdio: 'ignore' });
      return candidate;
    } catch {
      // Try the next one.
    }
  }
  throw new Error('The stalled-disk test needs a C compiler (Debian/Ubuntu: `sudo apt-get install -y gcc`).');
}

export function createStalledDisk(): StalledDisk {
  if (process.platform !== 'linux') throw new Error('The stalled-disk test preloads a shared library: it runs on Linux.');
  const folder = mkdtempSync(join(tmpdir(), 'anybrain-stalled-disk-'));
  const library = join(folder, 'stall-fsync.so');
  execFileSync(compiler(), ['-shared', '-fPIC', '-O2', '-o', library, SOURCE, '-ldl'], { stdio: 'pipe' });
  const flag = join(folder, 'stalled');
  return {
    environment: (dataDir, onlyEnding) => ({
      LD_PRELOAD: library,
      ANYBRAIN_TEST_STALL_DIR: dataDir,
      ANYBRAIN_TEST_STALL_FLAG: flag,
      ...(onlyEnding === undefined ? {} : { ANYBRAIN_TEST_STALL_SUFFIX: onlyEnding }),
    }),
    stall: () => writeFileSync(flag, 'stalled\n'),
    release: () => {
      if (existsSync(flag)) rmSync(flag);
    },
    dispose: () => rmSync(folder, { recursive: true, force: true }),
  };
}
