/**
 * The main window and the security settings around it: hardened webPreferences, a CSP header, no permissions,
 * no navigation away from the app's page, no new windows, https links handed to the system browser, and stored
 * attachments handed to the system viewer as copies whose extension the bytes decide.
 */
import { mkdtemp, readFile, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import type { BrowserWindowConstructorOptions, Session, WebContents } from 'electron';
import { BrowserWindow, shell } from 'electron';
import { parseAttachmentLink } from '../../src-shared/attachment-link';
import { ATTACHMENTS_FOLDER } from '../core/attachments/attachment-files';
import { sniffAttachment } from '../core/attachments/sniff';
import type { AppPage } from './app-page';
import { isAppUrl, parseUrl } from './app-page';

/** Window backgrounds: the renderer's `--bg` (src-renderer/styles/base.css), so no flash shows before the first paint. */
export const WINDOW_BACKGROUND = { dark: '#16171a', light: '#ffffff' } as const;

export interface WindowOptionsInput {
  /** Absolute path of the built preload (`out/preload/index.cjs`). */
  readonly preloadPath: string;
  readonly prefersDark: boolean;
  /** The data folder: only files inside its `attachments` folder can be opened from the window. */
  readonly dataDir: string;
}

export function buildWindowOptions({
  preloadPath,
  prefersDark,
}: Pick<WindowOptionsInput, 'preloadPath' | 'prefersDark'>): BrowserWindowConstructorOptions {
  return {
    title: 'Anybrain',
    width: 1200,
    height: 800,
    minWidth: 640,
    minHeight: 480,
    // Shown on `ready-to-show`, so the window never appears blank.
    show: false,
    backgroundColor: prefersDark ? WINDOW_BACKGROUND.dark : WINDOW_BACKGROUND.light,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
    },
  };
}

/**
 * The page's Content Security Policy. In development the React fast-refresh preamble is an inline module script
 * (@vitejs/plugin-react `transformIndexHtml`) and Vite's client talks to the dev server over a WebSocket, so only then
 * are inline scripts and the dev server's ws origin allowed.
 */
export function contentSecurityPolicy(page: AppPage): string {
  const devOrigin = page.kind === 'dev-server' ? page.origin : null;
  const devSocket = devOrigin === null ? null : devOrigin.replace(/^http/, 'ws');
  const directives = [
    `default-src 'self'`,
    devOrigin === null ? `script-src 'self'` : `script-src 'self' ${devOrigin} 'unsafe-inline'`,
    `style-src 'self' 'unsafe-inline'`,
    // Attachment images reach <img> as blob URLs made from the bytes the Api returns.
    `img-src 'self' data: blob:`,
    devOrigin === null ? `connect-src 'self'` : `connect-src 'self' ${devOrigin} ${devSocket}`,
    // Not covered by default-src: without these a base tag or a form could still point somewhere else.
    `object-src 'none'`,
    `base-uri 'none'`,
    `form-action 'none'`,
  ];
  return directives.join('; ');
}

/** Permissions the app's own page keeps: copying a reply to the clipboard. Everything else is refused. */
const GRANTED_PERMISSIONS = new Set<string>(['clipboard-sanitized-write']);

export function installSessionSecurity(target: Session, page: AppPage): void {
  const policy = contentSecurityPolicy(page);
  target.webRequest.onHeadersReceived((details, callback) => {
    const responseHeaders: Record<string, string[]> = {};
    for (const [name, values] of Object.entries(details.responseHeaders ?? {})) {
      // A server's own policy is replaced, never merged: header names arrive in any case.
      if (name.toLowerCase() !== 'content-security-policy') responseHeaders[name] = values;
    }
    responseHeaders['Content-Security-Policy'] = [policy];
    callback({ responseHeaders });
  });
  target.setPermissionRequestHandler((contents, permission, callback) => {
    callback(GRANTED_PERMISSIONS.has(permission) && isAppUrl(page, contents.getURL()));
  });
  target.setPermissionCheckHandler((contents, permission) => {
    return GRANTED_PERMISSIONS.has(permission) && contents !== null && isAppUrl(page, contents.getURL());
  });
}

/** Opens `url` in the system browser when it is an https URL; anything else (file:, javascript:, http:, …) is ignored. */
export function openExternalIfHttps(url: string): boolean {
  const parsed = parseUrl(url);
  if (parsed?.protocol !== 'https:') return false;
  shell.openExternal(parsed.href).catch((error: unknown) => {
    console.warn(`Anybrain: the system browser did not open a link: ${describeError(error)}`);
  });
  return true;
}

/**
 * The extension the viewer's copy gets, from the media type sniffed from the bytes: the system picks the program by
 * extension, so a text file named `run.sh` or `setup.bat` opens as `.txt` in a text viewer, never as a program.
 */
const VIEWER_EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/webp': '.webp',
  'image/gif': '.gif',
  'application/pdf': '.pdf',
};
const TEXT_EXTENSION = '.txt';
/** Longest stem kept from the attachment's name: file systems cap a name at 255 bytes. */
const MAX_STEM_LENGTH = 100;

/** The attachment's name without its extension, reduced to characters every file system takes. */
function viewerStem(name: string): string {
  const withoutExtension = name.replace(/\.[^.]*$/, '');
  const safe = withoutExtension
    .replace(/[^\p{L}\p{N} _-]+/gu, '_')
    .trim()
    .slice(0, MAX_STEM_LENGTH);
  return safe === '' ? 'attachment' : safe;
}

/**
 * Opens a stored attachment with the system viewer: only a file inside `<dataDir>/attachments` named by its sha256,
 * copied (owner-only) to a fresh temporary folder under a name whose extension its bytes decide. Returns false when
 * the link names nothing openable.
 */
export async function openAttachmentFile(dataDir: string, url: string): Promise<boolean> {
  const link = parseAttachmentLink(url);
  if (link === null) return false;
  let bytes: Buffer;
  try {
    const folder = await realpath(join(dataDir, ATTACHMENTS_FOLDER));
    const file = await realpath(join(folder, link.sha256));
    // A symbolic link planted in the folder could otherwise hand any file on the machine to the viewer.
    if (!file.startsWith(`${folder}${sep}`)) return false;
    bytes = await readFile(file);
  } catch {
    return false;
  }
  // The name the host stored the file under, which its bytes were sniffed against when it was attached.
  const sniffed = sniffAttachment(link.name, bytes);
  if (!sniffed.ok) return false;
  const extension = VIEWER_EXTENSIONS[sniffed.attachment.mediaType] ?? TEXT_EXTENSION;
  const copyFolder = await mkdtemp(join(tmpdir(), 'anybrain-attachment-'));
  const copy = join(copyFolder, `${viewerStem(link.name)}${extension}`);
  await writeFile(copy, bytes, { mode: 0o600, flag: 'wx' });
  const problem = await shell.openPath(copy);
  if (problem !== '') console.warn(`Anybrain: the system viewer did not open an attachment: ${problem}`);
  return problem === '';
}

/** Keeps `contents` on the app's page: other navigations are cancelled (https ones go to the browser). */
export function guardWebContents(contents: WebContents, page: AppPage, dataDir: string): void {
  contents.on('will-navigate', (event) => {
    if (isAppUrl(page, event.url)) return;
    event.preventDefault();
    openExternalIfHttps(event.url);
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (parseAttachmentLink(url) === null) {
      openExternalIfHttps(url);
    } else {
      openAttachmentFile(dataDir, url).catch((error: unknown) => {
        console.warn(`Anybrain: an attachment could not be opened: ${describeError(error)}`);
      });
    }
    return { action: 'deny' };
  });
}

export function createMainWindow(page: AppPage, options: WindowOptionsInput): BrowserWindow {
  const window = new BrowserWindow(buildWindowOptions(options));
  guardWebContents(window.webContents, page, options.dataDir);
  window.once('ready-to-show', () => {
    window.show();
  });
  const loading = page.kind === 'dev-server' ? window.loadURL(page.url) : window.loadFile(page.filePath);
  loading.catch((error: unknown) => {
    console.error(`Anybrain: the window could not load ${page.url}: ${describeError(error)}`);
  });
  return window;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
