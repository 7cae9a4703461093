#!/usr/bin/env node
/**
 * Runs Electronegativity on the Electron shell's sources (src-main/electron, tests excluded) and, when they exist,
 * the built main and preload bundles, and fails on any HIGH finding or any file it could not parse.
 *
 * Electronegativity itself exits 0 whatever it finds, so its results are read here (through its programmatic
 * runner, which returns the same issues its CSV/SARIF report holds) and judged by this script. It only parses
 * .js/.ts/.html/.json, so bundles ending in .cjs/.mjs are copied under a .js name first.
 *
 * Usage: node scripts/electronegativity.js [--verbose] [--out DIR]
 *   --out DIR   where the electron-vite build is (default: out)
 * Exit 1 on a HIGH finding or a parse error.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const verbose = process.argv.includes('--verbose');
const outFlag = process.argv.indexOf('--out');
const buildDir = outFlag === -1 ? 'out' : process.argv[outFlag + 1];
if (buildDir === undefined) throw new Error('--out needs a folder');

// Reasons for the allowlist below.
const BUILT_WINDOW_OPTIONS =
  'new BrowserWindow(buildWindowOptions(...)): the checker only reads an object literal at the constructor call. ' +
  'buildWindowOptions (window.ts) sets contextIsolation: true, sandbox: true, nodeIntegration: false, webviewTag: false, ' +
  'and window.test.ts asserts those exact webPreferences.';
const OPEN_EXTERNAL =
  'openExternalIfHttps passes only URLs that new URL() parses with protocol exactly https: (window.test.ts covers ' +
  'file:, http:, javascript:, smb:, data: and unparsable input).';
const AUXCLICK =
  'A middle-click opens a new window through setWindowOpenHandler, which denies every window (window.test.ts).';
const CSP_ASSEMBLED =
  'The policy is assembled from its directives at runtime, so the checker cannot parse it statically; window.test.ts ' +
  'asserts the exact production policy.';

const SHELL_AND_BUNDLE = ['src-main/electron/window.ts', 'out/main/index.js'];

/**
 * Findings judged false positives, each with the reason. A finding matches by check id, file (sources by their
 * project path, bundles as out/main/… or out/preload/…) and the flagged source line, so a new finding of the same
 * kind elsewhere in the file still counts.
 * An entry that no longer matches anything is reported, so the list cannot silently rot.
 */
const ALLOWLIST = [
  { check: 'CONTEXT_ISOLATION_JS_CHECK', files: SHELL_AND_BUNDLE, line: /new BrowserWindow\(buildWindowOptions\(options\)\)/, reason: BUILT_WINDOW_OPTIONS },
  { check: 'SANDBOX_JS_CHECK', files: SHELL_AND_BUNDLE, line: /new BrowserWindow\(buildWindowOptions\(options\)\)/, reason: BUILT_WINDOW_OPTIONS },
  { check: 'AUXCLICK_JS_CHECK', files: SHELL_AND_BUNDLE, line: /new BrowserWindow\(buildWindowOptions\(options\)\)/, reason: AUXCLICK },
  { check: 'OPEN_EXTERNAL_JS_CHECK', files: SHELL_AND_BUNDLE, line: /shell\.openExternal\(parsed\.href\)/, reason: OPEN_EXTERNAL },
  { check: 'CSP_GLOBAL_CHECK', files: SHELL_AND_BUNDLE, line: /responseHeaders\[["']Content-Security-Policy["']\] = \[policy\]/, reason: CSP_ASSEMBLED },
];

/** What gets scanned: a label (how findings name the folder, whatever --out says), its path, and which files. */
const TARGETS = [
  { label: 'src-main/electron', root: 'src-main/electron', include: (name) => name.endsWith('.ts') && !name.endsWith('.test.ts') },
  { label: 'out/main', root: join(buildDir, 'main'), include: (name) => /\.(c|m)?js$/.test(name) },
  { label: 'out/preload', root: join(buildDir, 'preload'), include: (name) => /\.(c|m)?js$/.test(name) },
  { label: 'out/renderer', root: join(buildDir, 'renderer'), include: (name) => name.endsWith('.html') },
];

function listFiles(directory) {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

/** Copies the scanned files into a staging folder; answers staged path → labelled original path. */
function stage(stagingDir) {
  const originals = new Map();
  for (const target of TARGETS) {
    const rootPath = resolve(projectRoot, target.root);
    if (!existsSync(rootPath)) {
      if (target.label === 'src-main/electron') throw new Error(`${target.root} does not exist`);
      console.log(`(skipped ${target.label}: nothing at ${target.root})`);
      continue;
    }
    for (const file of listFiles(rootPath).filter((path) => target.include(path))) {
      const original = `${target.label}/${relative(rootPath, file).split(sep).join('/')}`;
      const staged = join(stagingDir, original.replace(/\.(c|m)js$/, '.js'));
      cpSync(file, staged);
      originals.set(staged, original);
    }
  }
  return originals;
}

function sourceLine(file, lineNumber) {
  if (!isAbsolute(file) || !existsSync(file) || !Number.isInteger(lineNumber)) return '';
  return readFileSync(file, 'utf8').split('\n')[lineNumber - 1] ?? '';
}

function installedElectronVersion() {
  // The package.json only: requiring `electron` itself would try to download its binary.
  return JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
}

function describeIssue(issue, file) {
  const where = `${file}:${issue.location?.line ?? '?'}:${issue.location?.column ?? '?'}`;
  const review = issue.manualReview ? ' (manual review)' : '';
  return `${issue.severity.name.padEnd(13)} ${issue.confidence.name.padEnd(9)} ${issue.id}${review}  ${where}`;
}

async function main() {
  const run = require('@doyensec/electronegativity');
  const stagingDir = mkdtempSync(join(tmpdir(), 'anybrain-electronegativity-'));
  let failed = false;
  try {
    const originals = stage(stagingDir);
    console.log(`Scanning ${originals.size} files (Electron ${installedElectronVersion()})`);
    const result = await run({
      input: stagingDir,
      output: undefined,
      isSarif: false,
      customScan: [],
      excludeFromScan: [],
      severitySet: undefined,
      confidenceSet: undefined,
      isRelative: false,
      isVerbose: false,
      electronUpgrade: undefined,
      electronVersionOverride: installedElectronVersion(),
      parserPlugins: [],
    });

    // Global checks report the file as "N/A".
    const originalOf = (stagedFile) => originals.get(stagedFile) ?? (isAbsolute(stagedFile) ? relative(stagingDir, stagedFile) : stagedFile);

    for (const error of result.errors) {
      console.error(`PARSE ERROR   ${originalOf(error.file)}: ${error.message}`);
      failed = true;
    }

    const usedAllowances = new Set();
    const high = [];
    for (const issue of result.issues) {
      const file = originalOf(issue.file);
      const flaggedLine = sourceLine(issue.file, issue.location?.line);
      const allowance = ALLOWLIST.find(
        (entry) => entry.check === issue.id && entry.files.includes(file) && entry.line.test(flaggedLine),
      );
      if (allowance) {
        usedAllowances.add(allowance);
        console.log(`allowed       ${describeIssue(issue, file)}\n              reason: ${allowance.reason}`);
        continue;
      }
      console.log(describeIssue(issue, file));
      if (verbose) console.log(`              ${issue.description}`);
      if (issue.severity.name === 'HIGH') high.push(issue);
    }
    for (const entry of ALLOWLIST) {
      if (!usedAllowances.has(entry)) console.warn(`allowlist entry matched nothing: ${entry.check} in ${entry.files.join(', ')}`);
    }

    if (high.length > 0) {
      console.error(`\n${high.length} HIGH finding(s): fix them or allowlist them in scripts/electronegativity.js with a reason.`);
      failed = true;
    }
    console.log(failed ? '\nElectronegativity: FAILED' : `\nElectronegativity: no HIGH findings, no parse errors (${result.issues.length} finding(s) listed above).`);
  } finally {
    rmSync(stagingDir, { recursive: true, force: true });
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
