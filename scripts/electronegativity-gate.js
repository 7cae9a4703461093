/**
 * How `npm run security` judges Electronegativity's findings: which severities fail the build, and the findings judged
 * false positives, each with its reason. Pure, so scripts/electronegativity-gate.test.js can check the judgement
 * without running the scanner.
 */

/** HIGH and MEDIUM findings fail the gate unless allowlisted; LOW and INFORMATIONAL are listed only. */
export const GATED_SEVERITIES = new Set(['HIGH', 'MEDIUM']);

/** Scanner checks that reach the network; the gate runs offline, so they are not run. */
export const REMOTE_CHECKS = [
  // Downloads Electron's release list from raw.githubusercontent.com to compare versions: the installed Electron
  // version is pinned in package-lock.json and reviewed there instead.
  'AvailableSecurityFixesGlobalCheck',
];

const BUILT_WINDOW_OPTIONS =
  'new BrowserWindow(buildWindowOptions(...)): the checker only reads an object literal at the constructor call. ' +
  'buildWindowOptions (window.ts) sets contextIsolation: true, sandbox: true, nodeIntegration: false, webviewTag: false, ' +
  'and window.test.ts asserts those exact webPreferences.';
const OPEN_EXTERNAL =
  'openExternalIfHttps passes only URLs that new URL() parses with protocol exactly https: (window.test.ts covers ' +
  'file:, http:, javascript:, smb:, data: and unparsable input).';
const AUXCLICK = 'A middle-click opens a new window through setWindowOpenHandler, which denies every window (window.test.ts).';
const CSP_ASSEMBLED =
  'The policy is assembled from its directives at runtime, so the checker cannot parse it statically; window.test.ts ' +
  'asserts the exact production policy.';

const SHELL_AND_BUNDLE = ['src-main/electron/window.ts', 'out/main/index.js'];
const WINDOW_CONSTRUCTION = /^const window = new BrowserWindow\(buildWindowOptions\(options\)\);$/;

/**
 * Findings judged false positives. An entry matches one check at one severity, in the listed files (sources by their
 * project path, bundles as out/main/… or out/preload/…), on a flagged line that matches `line` whole (trimmed, so
 * the TypeScript source and the bundle's copy of the same statement both match): a new finding of the same kind
 * elsewhere still fails. An entry that matches nothing fails too, so the list cannot silently rot.
 */
export const ALLOWLIST = [
  { check: 'CONTEXT_ISOLATION_JS_CHECK', severity: 'HIGH', files: SHELL_AND_BUNDLE, line: WINDOW_CONSTRUCTION, reason: BUILT_WINDOW_OPTIONS },
  { check: 'SANDBOX_JS_CHECK', severity: 'MEDIUM', files: SHELL_AND_BUNDLE, line: WINDOW_CONSTRUCTION, reason: BUILT_WINDOW_OPTIONS },
  { check: 'AUXCLICK_JS_CHECK', severity: 'MEDIUM', files: SHELL_AND_BUNDLE, line: WINDOW_CONSTRUCTION, reason: AUXCLICK },
  {
    check: 'OPEN_EXTERNAL_JS_CHECK',
    severity: 'MEDIUM',
    files: SHELL_AND_BUNDLE,
    line: /^shell\.openExternal\(parsed\.href\)\.catch\(\(error(: unknown)?\) => \{$/,
    reason: OPEN_EXTERNAL,
  },
  {
    check: 'CSP_GLOBAL_CHECK',
    severity: 'LOW',
    files: SHELL_AND_BUNDLE,
    line: /^responseHeaders\[(["'])Content-Security-Policy\1\] = \[policy\];$/,
    reason: CSP_ASSEMBLED,
  },
];

/**
 * Judges findings `{ check, severity, file, line }` (`line`: the flagged source line). Answers the allowed ones with
 * their entry, the ones that fail the gate, and the allowlist entries that matched nothing.
 */
export function judgeFindings(findings, allowlist = ALLOWLIST) {
  const allowed = [];
  const failing = [];
  const listed = [];
  const usedEntries = new Set();
  for (const finding of findings) {
    const entry = allowlist.find(
      (candidate) =>
        candidate.check === finding.check &&
        candidate.severity === finding.severity &&
        candidate.files.includes(finding.file) &&
        candidate.line.test(finding.line.trim()),
    );
    if (entry !== undefined) {
      usedEntries.add(entry);
      allowed.push({ finding, entry });
    } else if (GATED_SEVERITIES.has(finding.severity)) failing.push(finding);
    else listed.push(finding);
  }
  const unusedEntries = allowlist.filter((entry) => !usedEntries.has(entry));
  return { allowed, failing, listed, unusedEntries };
}
