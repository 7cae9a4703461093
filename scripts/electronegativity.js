#!/usr/bin/env node
/**
 * Runs Electronegativity on the Electron shell's sources (src-main/electron, tests excluded) and, when they exist,
 * the built main and preload bundles, and fails on any HIGH or MEDIUM finding that is not allowlisted with a reason
 * (scripts/electronegativity-gate.js), on an allowlist entry that matches nothing, and on any file it could not parse.
 *
 * Electronegativity itself exits 0 whatever it finds, so its results are read here (through its programmatic
 * runner, which returns the same issues its CSV/SARIF report holds) and judged by this script. It only parses
 * .js/.ts/.html/.json, so bundles ending in .cjs/.mjs are copied under a .js name first.
 *
 * Offline: the package reaches the network in two places, both cut here. Its runner fetches updated locale strings
 * (locales/i18n.js), and the AvailableSecurityFixesGlobalCheck downloads Electron's release list; the check is
 * excluded from the scan, and the package's `got` is replaced by a stub that refuses every request, so nothing
 * leaves the machine whatever the package version does.
 *
 * Usage: node scripts/electronegativity.js [--verbose] [--out DIR]
 *   --out DIR   where the electron-vite build is (default: out)
 * Exit 1 on a failing finding, an unused allowlist entry or a parse error.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALLOWLIST, GATED_SEVERITIES, REMOTE_CHECKS, judgeFindings } from './electronegativity-gate.js';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const verbose = process.argv.includes('--verbose');
const outFlag = process.argv.indexOf('--out');
const buildDir = outFlag === -1 ? 'out' : process.argv[outFlag + 1];
if (buildDir === undefined) throw new Error('--out needs a folder');

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

/**
 * Puts a stub in the require cache where the package resolves `got`, its only HTTP client: every request is refused
 * and recorded. Returns the list of refused URLs.
 */
function refuseNetworkAccess() {
  const packageDir = dirname(require.resolve('@doyensec/electronegativity/package.json'));
  const gotPath = require.resolve('got', { paths: [packageDir] });
  const refused = [];
  const refuse = (url) => {
    refused.push(String(url));
    return Promise.reject(new Error('The security gate runs offline: no network requests.'));
  };
  const got = Object.assign(refuse, { get: refuse, head: refuse, post: refuse, stream: refuse, extend: () => got });
  require.cache[gotPath] = { id: gotPath, filename: gotPath, loaded: true, exports: Object.assign(got, { default: got }) };
  return refused;
}

async function main() {
  const refusedRequests = refuseNetworkAccess();
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
      // The package compares names in lower case.
      excludeFromScan: REMOTE_CHECKS.map((check) => check.toLowerCase()),
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

    const findings = result.issues.map((issue) => ({
      check: issue.id,
      severity: issue.severity.name,
      file: originalOf(issue.file),
      line: sourceLine(issue.file, issue.location?.line),
      issue,
    }));
    const verdict = judgeFindings(findings);
    for (const { finding, entry } of verdict.allowed) {
      console.log(`allowed       ${describeIssue(finding.issue, finding.file)}\n              reason: ${entry.reason}`);
    }
    for (const finding of [...verdict.listed, ...verdict.failing]) {
      console.log(`${verdict.failing.includes(finding) ? 'FAILS ' : ''}${describeIssue(finding.issue, finding.file)}`);
      if (verbose) console.log(`              ${finding.issue.description}`);
    }
    for (const entry of verdict.unusedEntries) {
      console.error(`allowlist entry matched nothing: ${entry.check} (${entry.severity}) in ${entry.files.join(', ')}: remove it or fix its pattern.`);
      failed = true;
    }
    if (verdict.failing.length > 0) {
      const gated = [...GATED_SEVERITIES].join(' or ');
      console.error(`\n${verdict.failing.length} ${gated} finding(s): fix them or allowlist them in scripts/electronegativity-gate.js with a reason.`);
      failed = true;
    }
    console.log(`offline: ${REMOTE_CHECKS.join(', ')} not run; ${refusedRequests.length} network request(s) refused${refusedRequests.length === 0 ? '' : ` (${refusedRequests.join(', ')})`}.`);
    console.log(
      failed
        ? '\nElectronegativity: FAILED'
        : `\nElectronegativity: no HIGH or MEDIUM findings outside the allowlist (${ALLOWLIST.length} entries), no parse errors (${result.issues.length} finding(s) listed above).`,
    );
  } finally {
    rmSync(stagingDir, { recursive: true, force: true });
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
