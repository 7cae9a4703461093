#!/usr/bin/env node
/**
 * A helper for process-lane tests, speaking the lane's JSON lines. Plain JavaScript so Node runs it as is.
 *   {"op":"echo","value":V}  answers V
 *   {"op":"fail"}            answers an error
 *   {"op":"hang"}            blocks this process's only thread for good, as a native call waiting on D-Bus does
 *   {"op":"exit"}            writes a line to stderr and exits 3
 *   {"op":"pid"}             answers this process's id
 */
import { createInterface } from 'node:readline';

const lines = createInterface({ input: process.stdin });
lines.on('close', () => process.exit(0));
lines.on('line', (line) => {
  const { id, request } = JSON.parse(line);
  switch (request.op) {
    case 'echo':
      process.stdout.write(`${JSON.stringify({ id, ok: true, value: request.value })}\n`);
      break;
    case 'pid':
      process.stdout.write(`${JSON.stringify({ id, ok: true, value: process.pid })}\n`);
      break;
    case 'fail':
      process.stdout.write(`${JSON.stringify({ id, ok: false, message: 'the helper refused' })}\n`);
      break;
    case 'hang':
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
      break;
    case 'exit':
      process.stderr.write('lane helper: exiting as asked\n');
      process.exit(3);
      break;
    default:
      process.stdout.write(`${JSON.stringify({ id, ok: false, message: `unknown op ${request.op}` })}\n`);
  }
});
