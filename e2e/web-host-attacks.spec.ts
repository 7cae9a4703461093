/**
 * The security review's attack on browser mode, in Chromium: another server on 127.0.0.1 (any port) that the user's
 * browser visits must receive no token, and its page must not be able to run a command on the web host by any
 * browser means (fetch, a form, a beacon, an event stream, an image). Saving an MCP server is the command that would
 * become code execution, so the check is that the host's MCP servers are unchanged afterwards.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { command, launchToken, openApp } from './support/app';
import { readE2eEnvironment } from './support/environment';

interface RecordedVisit {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A plain local site on its own 127.0.0.1 port that records everything the browser sends it. */
async function startOtherLocalSite(): Promise<{ origin: string; visits: RecordedVisit[]; server: Server }> {
  const visits: RecordedVisit[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      visits.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><title>Another local site</title><p>Hello</p>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, visits, server };
}

test('another 127.0.0.1 port the browser visits gets no token and cannot run commands', async ({ page, context, request }) => {
  const environment = readE2eEnvironment();
  const token = launchToken();
  const serversBefore = await command(request, 'listMcpServers', {});
  const site = await startOtherLocalSite();
  try {
    await openApp(page);
    // The token has left the address bar, and nothing was stored where other ports could read it.
    expect(page.url()).toBe(`${environment.origin}/`);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(await context.cookies()).toEqual([]);

    // The user follows a link from the app to the other site, and also has it open in another tab.
    await page.evaluate((url) => {
      window.location.href = url;
    }, `${site.origin}/from-the-app`);
    await page.waitForURL(`${site.origin}/from-the-app`);
    const otherTab = await context.newPage();
    await otherTab.goto(`${site.origin}/other-tab`);
    await expect(otherTab).toHaveTitle('Another local site');

    // Chromium hides refused cross-origin answers from the page and from Playwright's response events; the DevTools
    // protocol still reports the status line each request got from the host.
    const devtools = await context.newCDPSession(otherTab);
    const hostApiRequests = new Map<string, string>();
    const hostApiStatuses = new Map<string, number>();
    devtools.on('Network.requestWillBeSent', (sent) => {
      if (sent.request.url.startsWith(`${environment.origin}/api/`)) hostApiRequests.set(sent.requestId, `${sent.request.method} ${sent.request.url}`);
    });
    // Extra-info events may arrive before the request's own event, so every status is kept and matched afterwards.
    devtools.on('Network.responseReceivedExtraInfo', (received) => hostApiStatuses.set(received.requestId, received.statusCode));
    await devtools.send('Network.enable');
    const saveBody = JSON.stringify({ label: 'Planted', command: 'touch', args: ['/tmp/anybrain-planted'], env: {}, enabled: true });
    const outcomes = await otherTab.evaluate(
      async ({ hostOrigin, body }) => {
        const results: string[] = [];
        const commandUrl = `${hostOrigin}/api/command/saveMcpServer`;
        try {
          await fetch(commandUrl, { method: 'POST', mode: 'no-cors', credentials: 'include', body, headers: { 'content-type': 'text/plain' } });
          results.push('no-cors fetch answer opaque');
        } catch {
          results.push('no-cors fetch answer blocked');
        }
        try {
          const answer = await fetch(`${hostOrigin}/api/command/listMcpServers`, { method: 'POST', credentials: 'include', body: '{}' });
          results.push(`cors fetch read ${answer.status}`);
        } catch {
          results.push('cors fetch refused');
        }
        results.push(navigator.sendBeacon(commandUrl, body) ? 'beacon queued' : 'beacon not queued');
        results.push(
          await new Promise<string>((resolve) => {
            const stream = new EventSource(`${hostOrigin}/api/events`, { withCredentials: true });
            stream.onopen = () => {
              stream.close();
              resolve('event stream opened');
            };
            stream.onerror = () => {
              stream.close();
              resolve('event stream refused');
            };
          }),
        );
        results.push(
          await new Promise<string>((resolve) => {
            const image = new Image();
            image.onload = () => resolve('image loaded');
            image.onerror = () => resolve('image refused');
            image.src = `${hostOrigin}/api/command/listMcpServers`;
          }),
        );
        const sink = document.createElement('iframe');
        sink.name = 'sink';
        document.body.append(sink);
        const form = document.createElement('form');
        form.method = 'POST';
        form.action = commandUrl;
        form.enctype = 'text/plain';
        form.target = 'sink';
        const field = document.createElement('input');
        field.name = body.slice(0, -2);
        field.value = body.slice(-2);
        form.append(field);
        document.body.append(form);
        form.submit();
        results.push('form posted');
        return results;
      },
      { hostOrigin: environment.origin, body: saveBody },
    );
    expect(outcomes).toEqual([
      // Sent, but the host's Cross-Origin-Resource-Policy: same-origin withholds even the opaque answer.
      'no-cors fetch answer blocked',
      'cors fetch refused',
      'beacon queued',
      'event stream refused',
      'image refused',
      'form posted',
    ]);
    // Six requests reached the host (the CORS fetch is a simple request, so it is sent and only its answer is hidden);
    // each was refused: 403 for a foreign Origin, 401 without the bearer token.
    const answered = () =>
      [...hostApiRequests].map(([requestId, line]) => `${line.replace(environment.origin, '')} -> ${hostApiStatuses.get(requestId) ?? 'no answer yet'}`).sort();
    await expect.poll(answered).toEqual([
      'GET /api/command/listMcpServers -> 401',
      'GET /api/events -> 403',
      'POST /api/command/listMcpServers -> 403',
      'POST /api/command/saveMcpServer -> 403',
      'POST /api/command/saveMcpServer -> 403',
      'POST /api/command/saveMcpServer -> 403',
    ]);

    expect(await command(request, 'listMcpServers', {})).toEqual(serversBefore);
    expect(site.visits.map((visit) => `${visit.method} ${visit.url}`)).toEqual(
      expect.arrayContaining(['GET /from-the-app', 'GET /other-tab']),
    );
    // Leaving the app sends no Referer (its Referrer-Policy is no-referrer), so not even the app's address travels.
    expect(site.visits.find((visit) => visit.url === '/from-the-app')?.headers.referer).toBeUndefined();
    for (const visit of site.visits) {
      expect(visit.headers.cookie).toBeUndefined();
      expect(JSON.stringify(visit)).not.toContain(token);
    }
  } finally {
    await new Promise((resolve) => site.server.close(resolve));
  }
});

test('the retired ?token= address is refused with a pointer to the new one and leaves no cookie', async ({ page, context }) => {
  const environment = readE2eEnvironment();
  const answer = await page.goto(`${environment.origin}/?token=${launchToken()}`);
  expect(answer?.status()).toBe(401);
  await expect(page.locator('body')).toHaveText(
    'Anybrain no longer takes its token in `?token=`. Open the address `anybrain serve` printed this time: it looks like http://127.0.0.1:PORT/#token=\u2026',
  );
  expect(await context.cookies()).toEqual([]);
});
