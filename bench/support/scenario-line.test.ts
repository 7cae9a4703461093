import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { formatScenarioLine, isSmokeRun, reportScenario } from './scenario-line';

describe('scenario lines', () => {
  it('prints name, value, baseline, ratio and target with the verdict', () => {
    expect(formatScenarioLine({ name: 'open-100k-vs-100', value: 52.4, baseline: 48.1, unit: 'ms', target: '<= 1.3x', met: true })).toBe(
      'open-100k-vs-100  52.4 ms  48.1 ms  1.09x  <= 1.3x (met)',
    );
    expect(formatScenarioLine({ name: 'longest-task', value: 71.25, baseline: null, unit: 'ms', target: '<= 50 ms', met: false })).toBe(
      'longest-task  71.3 ms  -  -  <= 50 ms (MISSED)',
    );
  });

  it('appends each line as JSON to ANYBRAIN_BENCH_RESULTS, marked when the run is a smoke run', () => {
    const folder = mkdtempSync(join(tmpdir(), 'anybrain-scenario-'));
    const file = join(folder, 'results.jsonl');
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const environment = { ANYBRAIN_BENCH_RESULTS: file, ANYBRAIN_BENCH_SMOKE: '1' };
      reportScenario({ name: 'a', value: 2, baseline: 1, unit: '', target: '<= 2x', met: true }, environment);
      expect(log).toHaveBeenCalledWith('a  2.00  1.00  2.00x  <= 2x (met)');
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ name: 'a', value: 2, baseline: 1, unit: '', target: '<= 2x', met: true, smoke: true });
      expect(isSmokeRun(environment)).toBe(true);
      expect(isSmokeRun({})).toBe(false);
    } finally {
      log.mockRestore();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
