import { describe, expect, it } from 'vitest';
import { ALLOWLIST, GATED_SEVERITIES, REMOTE_CHECKS, judgeFindings } from './electronegativity-gate.js';

const windowLine = '  const window = new BrowserWindow(buildWindowOptions(options));';
const finding = (overrides) => ({ check: 'SANDBOX_JS_CHECK', severity: 'MEDIUM', file: 'src-main/electron/window.ts', line: windowLine, ...overrides });

describe('the electronegativity gate', () => {
  it('fails HIGH and MEDIUM findings, and only lists LOW and INFORMATIONAL ones', () => {
    expect([...GATED_SEVERITIES]).toEqual(['HIGH', 'MEDIUM']);
    const findings = [
      finding({ check: 'NODE_INTEGRATION_JS_CHECK', severity: 'HIGH', line: 'nodeIntegration: true' }),
      finding({ check: 'PRELOAD_JS_CHECK', severity: 'MEDIUM', line: 'preload: path' }),
      finding({ check: 'CSP_GLOBAL_CHECK', severity: 'LOW', file: 'out/renderer/index.html', line: '<meta' }),
      finding({ check: 'DANGEROUS_FUNCTIONS_JS_CHECK', severity: 'INFORMATIONAL', line: 'eval(x)' }),
    ];
    const verdict = judgeFindings(findings, []);
    expect(verdict.failing.map((item) => item.check)).toEqual(['NODE_INTEGRATION_JS_CHECK', 'PRELOAD_JS_CHECK']);
    expect(verdict.listed.map((item) => item.check)).toEqual(['CSP_GLOBAL_CHECK', 'DANGEROUS_FUNCTIONS_JS_CHECK']);
  });

  it('allows a finding only with its check, severity, file and whole flagged line', () => {
    expect(judgeFindings([finding({})]).allowed).toHaveLength(1);
    // The bundle holds the same statement.
    expect(judgeFindings([finding({ file: 'out/main/index.js', line: '\tconst window = new BrowserWindow(buildWindowOptions(options));' })]).allowed).toHaveLength(1);
    for (const other of [
      finding({ severity: 'HIGH' }),
      finding({ file: 'src-main/electron/other.ts' }),
      finding({ line: '  const popup = new BrowserWindow(buildWindowOptions(options));' }),
      finding({ line: '  const window = new BrowserWindow(buildWindowOptions(options)); new BrowserWindow({ sandbox: false });' }),
    ]) {
      expect(judgeFindings([other]).failing).toEqual([other]);
    }
  });

  it('reports the allowlist entries that matched nothing', () => {
    const verdict = judgeFindings([finding({})]);
    expect(verdict.unusedEntries.map((entry) => entry.check)).toEqual(['CONTEXT_ISOLATION_JS_CHECK', 'AUXCLICK_JS_CHECK', 'OPEN_EXTERNAL_JS_CHECK', 'CSP_GLOBAL_CHECK']);
  });

  it('gives every allowlist entry a reason, a severity and whole-line pattern', () => {
    for (const entry of ALLOWLIST) {
      expect(entry.reason.length, entry.check).toBeGreaterThan(40);
      expect(['HIGH', 'MEDIUM', 'LOW', 'INFORMATIONAL'], entry.check).toContain(entry.severity);
      expect(entry.line.source.startsWith('^') && entry.line.source.endsWith('$'), entry.check).toBe(true);
    }
  });

  it('leaves out the check that downloads Electron release data', () => {
    expect(REMOTE_CHECKS).toEqual(['AvailableSecurityFixesGlobalCheck']);
  });
});
