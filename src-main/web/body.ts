/**
 * Reading a command's body without holding more than the host allows in memory.
 */
import type { IncomingMessage } from 'node:http';

export type BodyOutcome = { readonly kind: 'read'; readonly text: string } | { readonly kind: 'too-large' };

export function readBody(request: IncomingMessage, maxBytes: number): Promise<BodyOutcome> {
  // Node has already checked that a Content-Length header is a plain decimal number.
  const declaredLength = Number(request.headers['content-length'] ?? 0);
  if (declaredLength > maxBytes) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      // Stop reading but keep the socket: destroying it here would discard the 413 before the client reads it.
      request.off('data', onData);
      request.pause();
      chunks.length = 0;
      resolve({ kind: 'too-large' });
    };
    request.on('data', onData);
    request.on('end', () => resolve({ kind: 'read', text: Buffer.concat(chunks).toString('utf8') }));
    request.on('error', reject);
  });
}
