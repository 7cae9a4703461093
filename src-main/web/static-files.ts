/**
 * The built window's files. They hold no data, so they are served without the token; a path that escapes the folder
 * is not found, and an unknown path without an extension is the single-page app's own route.
 *
 * Each file is read once, on this thread, and kept: a few hundred kilobytes that never change while the host runs.
 * Served from memory, the window never waits on libuv's thread pool, which a disk that stopped answering a sync or a
 * slow DNS lookup may hold.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { decodePath } from './request-target';
import { SECURITY_HEADERS, send } from './responses';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

export function serveStatic(staticDir: string, pathname: string, response: ServerResponse): void {
  const decoded = decodePath(pathname);
  if (decoded === null) {
    send(response, 400, 'The address has malformed percent-encoding.');
    return;
  }
  const relative = normalize(decoded).replace(/^([/\\])+/, '');
  const candidate = join(staticDir, relative);
  if ((!candidate.startsWith(staticDir + sep) && candidate !== staticDir) || candidate.includes('\0')) {
    send(response, 404, 'Not found');
    return;
  }
  const isFile = existsSync(candidate) && statSync(candidate).isFile();
  // Unknown paths without an extension are the single-page app's own routes.
  const file = isFile ? candidate : extname(relative) === '' ? join(staticDir, 'index.html') : null;
  if (file === null || !existsSync(file)) {
    send(
      response,
      404,
      file === null ? 'Not found' : 'The window is not built yet. Run `npm run build`, then start `anybrain serve` again.',
    );
    return;
  }
  let bytes = kept.get(file);
  if (bytes === undefined) {
    try {
      bytes = readFileSync(file);
    } catch {
      send(response, 404, 'Not found');
      return;
    }
    kept.set(file, bytes);
  }
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'Content-Length': bytes.byteLength,
    'Cache-Control': file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  response.end(bytes);
}

/** The files served so far, by path. */
const kept = new Map<string, Buffer>();
