/** Entry for e2e setups, benches and manual runs: they import the server in-process. */
export { startFakeBrains } from './server';
export type { FakeBrains, FakeBrainsOptions, RecordedRequest, RuleViolation } from './server';
