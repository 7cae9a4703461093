/**
 * One line per benchmark scenario, the shape `npm run bench` prints for every scenario:
 *
 *   name  value  baseline  ratio  target
 *
 * The baseline is measured in the same run (the machine is shared and noisy, so only ratios compare across runs).
 * A scenario reports; it never fails on time. Each line is also appended, as JSON, to the file named by
 * `ANYBRAIN_BENCH_RESULTS` when that is set, so a run's figures can be collected into bench/RESULTS.md.
 *
 * `ANYBRAIN_BENCH_SMOKE=1` asks every scenario for its smallest sizes and fewest repetitions: the smoke run in
 * `npm test` checks only that each scenario still runs and reports a line.
 */
import { appendFileSync } from 'node:fs';

export interface ScenarioResult {
  /** Stable name, e.g. `open-conversation-100k-vs-100`. */
  readonly name: string;
  /** The measured figure, in `unit`. */
  readonly value: number;
  /** The same-run baseline the value is compared with, in `unit` (null when the target is absolute). */
  readonly baseline: number | null;
  readonly unit: string;
  /** The target as written in the issue, e.g. `<= 1.3x` or `<= 50 ms`. */
  readonly target: string;
  /** Whether this run met the target. */
  readonly met: boolean;
}

export function isSmokeRun(environment: NodeJS.ProcessEnv = process.env): boolean {
  return environment.ANYBRAIN_BENCH_SMOKE === '1';
}

function figure(value: number, unit: string): string {
  const rounded = Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2);
  return unit === '' ? rounded : `${rounded} ${unit}`;
}

/** `name  value  baseline  ratio  target`; an absolute target has `-` for baseline and ratio. */
export function formatScenarioLine(result: ScenarioResult): string {
  const ratio = result.baseline === null || result.baseline === 0 ? '-' : `${(result.value / result.baseline).toFixed(2)}x`;
  const baseline = result.baseline === null ? '-' : figure(result.baseline, result.unit);
  const verdict = result.met ? 'met' : 'MISSED';
  return [result.name, figure(result.value, result.unit), baseline, ratio, `${result.target} (${verdict})`].join('  ');
}

export function reportScenario(result: ScenarioResult, environment: NodeJS.ProcessEnv = process.env): string {
  const line = formatScenarioLine(result);
  console.log(line);
  const resultsFile = environment.ANYBRAIN_BENCH_RESULTS;
  if (resultsFile) appendFileSync(resultsFile, `${JSON.stringify({ ...result, smoke: isSmokeRun(environment) })}\n`);
  return line;
}
