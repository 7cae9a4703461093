/**
 * Where the Electron-ABI better-sqlite3 binary lives. `node_modules` keeps the Node-ABI build (tests, CLI, web host);
 * the shell loads its own build through better-sqlite3's `nativeBinding` option.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const NATIVE_BINARY_NAME = 'better_sqlite3.node';

export interface NativeBindingContext {
  readonly isPackaged: boolean;
  /** `process.resourcesPath`: electron-builder's `extraResources` copy the binary to `native/` under it. */
  readonly resourcesPath: string;
  /** The project folder (holding `build/`), used in development. */
  readonly projectRoot: string;
  /** `process.versions.modules`: the ABI the binary must be built for. */
  readonly moduleAbi: string;
}

export function nativeBindingPath({ isPackaged, resourcesPath, projectRoot, moduleAbi }: NativeBindingContext): string {
  return isPackaged
    ? join(resourcesPath, 'native', NATIVE_BINARY_NAME)
    : join(projectRoot, 'build', 'native', `electron-${moduleAbi}`, NATIVE_BINARY_NAME);
}

/** The binary's path, or undefined (with one warning) when it is missing. */
export function resolveNativeBinding(
  context: NativeBindingContext,
  fileExists: (path: string) => boolean = existsSync,
  warn: (line: string) => void = console.warn,
): string | undefined {
  const path = nativeBindingPath(context);
  if (fileExists(path)) return path;
  warn(
    `Anybrain: no Electron build of better-sqlite3 at ${path} (ABI ${context.moduleAbi}). ` +
      (context.isPackaged
        ? 'This package is incomplete; reinstall Anybrain.'
        : 'Run `npm run build:electron-sqlite`; until then the database cannot open in the desktop shell.'),
  );
  return undefined;
}
