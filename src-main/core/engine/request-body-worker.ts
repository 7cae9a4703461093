/**
 * The worker thread that builds and serialises a long history's request body (see request-body-encoder.ts): at a
 * window of a million tokens the build and `JSON.stringify` take tens of milliseconds each, which on the main thread
 * would hold up the window's commands and other turns' deltas. It imports the pure converters only.
 */
import { parentPort } from 'node:worker_threads';
import { encodeBody } from '../providers/encoded-body';
import { buildFromParts } from '../replay/request-parts';
import type { InvocationRow } from '../store/invocations';
import type { MessageRow } from '../store/messages';
import type { BodyJob, BodyJobAnswer } from './request-body-encoder';

const port = parentPort;
if (port === null) throw new Error('request-body-worker runs as a worker thread only.');

/** The rows and calls of the jobs whose parts are still coming, by job id. */
interface ArrivingJob {
  readonly rows: MessageRow[];
  readonly invocations: Map<string, readonly InvocationRow[]>;
}
const arriving = new Map<number, ArrivingJob>();

port.on('message', (job: BodyJob) => {
  const received: ArrivingJob = arriving.get(job.id) ?? { rows: [], invocations: new Map() };
  if (job.type === 'rows') {
    received.rows.push(...job.rows);
    for (const [messageId, calls] of job.invocations) received.invocations.set(messageId, calls);
    arriving.set(job.id, received);
    return;
  }
  arriving.delete(job.id);
  let answer: BodyJobAnswer;
  try {
    const encoded = encodeBody(buildFromParts({ ...job.parts, rows: received.rows, invocations: received.invocations }).body);
    answer = { id: job.id, type: 'done', json: encoded.json, fields: encoded.fields };
  } catch (thrown) {
    answer = { id: job.id, type: 'failed', message: thrown instanceof Error ? thrown.message : String(thrown) };
  }
  // The bytes move to the main thread rather than being copied.
  port.postMessage(answer, answer.type === 'done' ? [answer.json.buffer] : []);
});
