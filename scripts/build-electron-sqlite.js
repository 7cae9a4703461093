#!/usr/bin/env node
/**
 * Builds better-sqlite3 against Electron's headers into build/native/electron-<abi>/better_sqlite3.node, for the
 * desktop shell. node_modules keeps its Node-ABI build (tests, CLI, web host): the sources are compiled in a
 * temporary copy, never in place.
 *
 * Usage: node scripts/build-electron-sqlite.js [--arch ARCH] [--headers DIR] [--if-missing]
 *   --if-missing   do nothing when the binary for this Electron ABI is already built
 *   --arch ARCH    target architecture (default: this machine's, e.g. x64 or arm64)
 *   --headers DIR  Electron's node headers, already extracted (for machines that cannot reach electronjs.org);
 *                  also read from ELECTRON_HEADERS_DIR. Without it node-gyp downloads them from
 *                  https://electronjs.org/headers into ~/.electron-gyp.
 *
 * The binary is built for this operating system only; package each platform on that platform.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, homedir, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ELECTRON_HEADERS_URL = 'https://electronjs.org/headers';
const BINARY_NAME = 'better_sqlite3.node';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

class BuildError extends Error {}

function option(name) {
  const index = process.argv.indexOf(name);
  if (index === -1) return undefined;
  const value = process.argv[index + 1];
  if (value === undefined || value.startsWith('--')) throw new BuildError(`${name} needs a value`);
  return value;
}

function packageDir(name) {
  try {
    // package.json only: requiring `electron` itself would try to download its binary.
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    throw new BuildError(`${name} is not installed in node_modules; run npm install first.`);
  }
}

function readElectron() {
  const directory = packageDir('electron');
  const version = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')).version;
  // Electron's package ships its NODE_MODULE_VERSION in abi_version; it is what process.versions.modules reports.
  const abiFile = join(directory, 'abi_version');
  if (!existsSync(abiFile)) throw new BuildError(`${abiFile} is missing, so the Electron ABI is unknown.`);
  const abi = readFileSync(abiFile, 'utf8').trim();
  if (!/^\d+$/.test(abi)) throw new BuildError(`${abiFile} does not hold an ABI number: ${JSON.stringify(abi)}`);
  return { version, abi };
}

/** Runs node-gyp, echoing its output and keeping it for the diagnosis. */
function runNodeGyp(args, workDir) {
  const nodeGyp = join(packageDir('node-gyp'), 'bin', 'node-gyp.js');
  return new Promise((resolveRun, rejectRun) => {
    const child = spawn(process.execPath, [nodeGyp, ...args], { cwd: workDir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (stream, sink) =>
      stream.on('data', (chunk) => {
        output += chunk;
        sink.write(chunk);
      });
    keep(child.stdout, process.stdout);
    keep(child.stderr, process.stderr);
    child.on('error', rejectRun);
    child.on('close', (code, signal) => resolveRun({ code, signal, output }));
  });
}

function explainFailure({ code, signal, output }, electron, headers) {
  const reason = signal ? `was stopped by ${signal}` : `exited with code ${code}`;
  const downloadFailed =
    /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|getaddrinfo|self.signed|certificate|403|404/i.test(output) &&
    /electronjs\.org|headers/i.test(output);
  if (headers.kind === 'download' && (downloadFailed || !existsSync(headers.marker))) {
    return (
      `node-gyp ${reason}: the Electron ${electron.version} headers are missing.\n` +
      `  Needed: ${ELECTRON_HEADERS_URL}/v${electron.version}/node-v${electron.version}-headers.tar.gz ` +
      `(extracted by node-gyp into ${headers.devDir}/${electron.version}/).\n` +
      '  This machine could not download them. Run this script where electronjs.org is reachable, or extract that ' +
      'archive elsewhere and pass its folder with --headers DIR (or ELECTRON_HEADERS_DIR).'
    );
  }
  return `node-gyp ${reason}; see its output above (a C++20 compiler, make and Python 3 are required).`;
}

/**
 * An Electron-ABI binary must refuse to load into this Node (whose ABI differs); its refusal names the ABI it was
 * built for. Answers 'confirmed', or a reason the file is wrong, or null when Node's answer says neither.
 */
function checkAbiFromNode(binaryPath, abi) {
  const probe = spawnSync(process.execPath, ['-e', `process.dlopen({ exports: {} }, ${JSON.stringify(binaryPath)})`], {
    encoding: 'utf8',
  });
  if (probe.status === 0) return { ok: false, detail: `it loads into Node ${process.version}, so it is a Node-ABI build` };
  if (probe.stderr.includes(`NODE_MODULE_VERSION ${abi}.`)) return { ok: true, detail: `built for NODE_MODULE_VERSION ${abi}` };
  const mentioned = /NODE_MODULE_VERSION (\d+)\./.exec(probe.stderr);
  if (mentioned && mentioned[1] !== String(process.versions.modules)) {
    return { ok: false, detail: `it was built for NODE_MODULE_VERSION ${mentioned[1]}, not ${abi}` };
  }
  return { ok: null, detail: probe.stderr.split('\n').find((line) => line.includes('Error')) ?? 'no diagnosis' };
}

async function main() {
  // Whole seconds: some file systems keep modification times at that resolution.
  const startedAt = Math.floor(Date.now() / 1000) * 1000;
  const arch = option('--arch') ?? process.arch;
  const headersDir = option('--headers') ?? process.env.ELECTRON_HEADERS_DIR;
  const electron = readElectron();
  const sqliteDir = packageDir('better-sqlite3');
  const sqliteVersion = JSON.parse(readFileSync(join(sqliteDir, 'package.json'), 'utf8')).version;
  const outputDir = join(projectRoot, 'build', 'native', `electron-${electron.abi}`);
  const outputFile = join(outputDir, BINARY_NAME);
  if (process.argv.includes('--if-missing') && existsSync(outputFile)) return;

  let headers;
  if (headersDir) {
    const nodeDir = resolve(headersDir);
    if (!existsSync(join(nodeDir, 'include', 'node', 'node_version.h'))) {
      throw new BuildError(`${nodeDir} does not hold Electron's node headers (include/node/node_version.h is missing).`);
    }
    headers = { kind: 'local', args: [`--nodedir=${nodeDir}`] };
  } else {
    const devDir = join(homedir(), '.electron-gyp');
    headers = {
      kind: 'download',
      devDir,
      marker: join(devDir, electron.version, 'include', 'node', 'node_version.h'),
      args: [`--dist-url=${ELECTRON_HEADERS_URL}`, `--devdir=${devDir}`],
    };
  }

  console.log(
    `Building better-sqlite3 ${sqliteVersion} for Electron ${electron.version} (ABI ${electron.abi}, ` +
      `${process.platform}-${arch}) into ${relative(projectRoot, outputDir)}/`,
  );

  const workDir = mkdtempSync(join(tmpdir(), 'anybrain-electron-sqlite-'));
  let abiCheck;
  try {
    for (const entry of ['package.json', 'binding.gyp', 'src', 'deps']) {
      cpSync(join(sqliteDir, entry), join(workDir, entry), { recursive: true });
    }
    const result = await runNodeGyp(
      ['rebuild', '--release', `--target=${electron.version}`, `--arch=${arch}`, `--jobs=${availableParallelism()}`, ...headers.args],
      workDir,
    );
    if (result.code !== 0) throw new BuildError(explainFailure(result, electron, headers));

    const builtFile = join(workDir, 'build', 'Release', BINARY_NAME);
    if (!existsSync(builtFile)) throw new BuildError(`node-gyp reported success, but ${BINARY_NAME} was not produced.`);
    if (statSync(builtFile).mtimeMs < startedAt) throw new BuildError(`${builtFile} predates this run: nothing was built.`);
    abiCheck = checkAbiFromNode(builtFile, electron.abi);
    if (abiCheck.ok === false) throw new BuildError(`The build is not an Electron ${electron.abi} binary: ${abiCheck.detail}.`);

    // Copied beside its final place and renamed, so a failed run never leaves a partial binary behind.
    mkdirSync(outputDir, { recursive: true });
    const stagedFile = `${outputFile}.partial`;
    cpSync(builtFile, stagedFile);
    renameSync(stagedFile, outputFile);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }

  if (!existsSync(outputFile) || statSync(outputFile).mtimeMs < startedAt) {
    throw new BuildError(`${outputFile} is missing or older than this run.`);
  }
  writeFileSync(
    join(outputDir, 'build-info.json'),
    `${JSON.stringify(
      {
        electron: electron.version,
        abi: electron.abi,
        platform: process.platform,
        arch,
        betterSqlite3: sqliteVersion,
        builtAt: new Date().toISOString(),
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nWrote ${relative(projectRoot, outputFile)} (${statSync(outputFile).size} bytes).`);
  console.log(
    abiCheck.ok
      ? `ABI check: Node refuses it as ${abiCheck.detail}, as expected.`
      : `ABI check inconclusive (${abiCheck.detail}); it will be confirmed when Electron loads it.`,
  );
}

main().catch((error) => {
  console.error(`\nbuild-electron-sqlite: ${error instanceof BuildError ? error.message : error.stack}`);
  console.error('No Electron build of better-sqlite3 was produced by this run.');
  process.exitCode = 1;
});
