/**
 * electron-builder `beforePack` hook: refuses to package without the Electron-ABI better-sqlite3 binary the shell
 * loads at runtime (resources/native/better_sqlite3.node), or with one built for another Electron, platform or
 * architecture. npmRebuild is off, so nothing else would catch a missing or wrong binary before users do.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

// electron-builder's Arch enum (builder-util): the numeric `context.arch` → Node's `process.arch` names.
const ARCH_NAMES = { 0: 'ia32', 1: 'x64', 2: 'arm', 3: 'arm64', 4: 'universal' };

export async function beforePack(context) {
  // package.json only: requiring `electron` itself would try to download its binary.
  const electronDir = dirname(require.resolve('electron/package.json'));
  const abi = readFileSync(join(electronDir, 'abi_version'), 'utf8').trim();
  const electronVersion = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')).version;
  const nativeDir = join(projectRoot, 'build', 'native', `electron-${abi}`);
  const binary = join(nativeDir, 'better_sqlite3.node');
  const rebuildHint = 'Run `npm run build:electron-sqlite` on this platform first.';

  if (!existsSync(binary)) throw new Error(`Missing ${binary} (better-sqlite3 for Electron ${electronVersion}). ${rebuildHint}`);

  const expectedSource = `build/native/electron-${abi}/better_sqlite3.node`;
  const sources = (context.packager.config.extraResources ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.from));
  if (!sources.includes(expectedSource)) {
    throw new Error(`build/electron-builder.yml must copy ${expectedSource} (Electron ${electronVersion} has ABI ${abi}); it copies ${JSON.stringify(sources)}.`);
  }

  const infoFile = join(nativeDir, 'build-info.json');
  if (!existsSync(infoFile)) throw new Error(`Missing ${infoFile}: the binary's origin is unknown. ${rebuildHint}`);
  const info = JSON.parse(readFileSync(infoFile, 'utf8'));
  const targetArch = ARCH_NAMES[context.arch] ?? String(context.arch);
  const problems = [];
  if (info.electron !== electronVersion) problems.push(`it was built for Electron ${info.electron}, not ${electronVersion}`);
  if (info.platform !== context.electronPlatformName) problems.push(`it was built on ${info.platform}, not ${context.electronPlatformName}`);
  if (info.arch !== targetArch) problems.push(`it was built for ${info.arch}, not ${targetArch}`);
  if (problems.length > 0) throw new Error(`${binary} does not fit this package: ${problems.join('; ')}. ${rebuildHint}`);
}

export default beforePack;
