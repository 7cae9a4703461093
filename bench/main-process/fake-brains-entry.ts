/**
 * The fake brains in a process of their own, for the main-process benchmarks: a request's parsing, rule checks and
 * replies then cost the benchmark's process nothing, so its CPU time and event-loop stalls are the app's alone.
 * Prints `{"url": …, "baseUrls": {brain: …}}` on one line once listening; closes when its standard input ends.
 */
import { startFakeBrains } from '../../e2e/fake-brains/server';
import { BRAIN_IDS } from '../../src-shared/brains';

const fake = await startFakeBrains();
const baseUrls = Object.fromEntries(BRAIN_IDS.map((brain) => [brain, fake.baseUrlFor(brain)]));
process.stdout.write(`${JSON.stringify({ url: fake.url, baseUrls })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void fake.close().then(() => process.exit(0));
});
