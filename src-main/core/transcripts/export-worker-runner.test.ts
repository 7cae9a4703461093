import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildCliInto, cliBuildFolder } from '../../cli/testing';
import { closeDatabase, openDatabase, type AppDatabase } from '../store/open';
import { exportConversation } from './export';
import { writeExportArchive } from './export-archive';
import { PNG, seedAttachedConversation, seedConversation, seedManyConversations } from './export-testing';
import { exportWorkerEntry, runExportWorker } from './export-worker-runner';

/** The command line's build: the worker is one of its entries, as in the Electron main build. */
const builtFolder = cliBuildFolder('export-worker');
let entry: URL;

beforeAll(() => {
  buildCliInto(builtFolder);
  entry = exportWorkerEntry(pathToFileURL(join(builtFolder, 'anybrain.js')).href);
}, 120_000);
afterAll(() => rmSync(builtFolder, { recursive: true, force: true }));

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function fileDatabase(): { db: AppDatabase; path: string } {
  const folder = mkdtempSync(join(tmpdir(), 'anybrain-export-worker-'));
  const path = join(folder, 'anybrain.db');
  const db = openDatabase(path);
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }), () => closeDatabase(db));
  return { db, path };
}

describe('the export worker', () => {
  it('is found beside the bundle, from the entry or from a shared chunk one folder down, and not in the sources', () => {
    expect(entry.pathname).toBe(join(builtFolder, 'export-worker.js'));
    expect(exportWorkerEntry(pathToFileURL(join(builtFolder, 'assets', 'shared-chunk.js')).href).pathname).toBe(join(builtFolder, 'export-worker.js'));
    expect(() => exportWorkerEntry()).toThrow(/export-worker\.js is not built beside .*src-main\/core\/transcripts\/\. Run `npm run build` first\./);
  });

  it('builds on its own read-only connection the same zip as the in-process writer, with progress', async () => {
    const { db, path } = fileDatabase();
    seedManyConversations(db, 3);
    const progress: Array<[number, number]> = [];
    const archive = await runExportWorker({
      entry,
      databasePath: path,
      dataDir: dirname(path),
      request: { format: 'md' },
      signal: new AbortController().signal,
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(progress).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(archive).not.toBeNull();
    expect(archive!.conversations).toBe(3);
    expect(archive!.messages).toBe(12);
    const inProcess = writeExportArchive(db, { format: 'md' })!;
    const decode = (bytes: Uint8Array) => Object.fromEntries(Object.entries(unzipSync(bytes)).map(([name, content]) => [name, strFromU8(content)]));
    expect(decode(archive!.bytes)).toEqual(decode(inProcess.bytes));
  });

  it("reads the attachments' files from the data folder it is given", async () => {
    const { db, path } = fileDatabase();
    seedAttachedConversation(db, dirname(path));
    const archive = await runExportWorker({ entry, databasePath: path, dataDir: dirname(path), request: { format: 'md' }, signal: new AbortController().signal, onProgress: () => {} });
    const files = unzipSync(archive!.bytes);
    expect(Object.keys(files)).toEqual([
      'Three-files-c1.md',
      'Three-files-c1.attachments/photo.png',
      'Three-files-c1.attachments/report.pdf',
      'Three-files-c1.attachments/notes.md',
      'index.json',
    ]);
    expect(Buffer.from(files['Three-files-c1.attachments/photo.png']!)).toEqual(PNG);
  });

  it('stops when the signal aborts, and hands back nothing', async () => {
    const { db, path } = fileDatabase();
    seedManyConversations(db, 200, 1);
    const controller = new AbortController();
    const progress: number[] = [];
    const outcome = await runExportWorker({
      entry,
      databasePath: path,
      dataDir: dirname(path),
      request: { format: 'json' },
      signal: controller.signal,
      onProgress: (done) => {
        progress.push(done);
        controller.abort();
      },
    });
    expect(outcome).toBeNull();
    expect(progress).toEqual([0]);
  });

  it('reports a worker that fails, such as a missing database', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'anybrain-export-worker-'));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    await expect(
      runExportWorker({ entry, databasePath: join(folder, 'missing.db'), dataDir: folder, request: { format: 'json' }, signal: new AbortController().signal, onProgress: () => {} }),
    ).rejects.toThrow(/unable to open database file|does not exist/);
  });

  it('runs under the built `anybrain export --all`, beside the command line that started it', () => {
    const { db, path } = fileDatabase();
    seedConversation(db, { id: '01JEXPORT00000000000000001', title: '../etc', at: '2026-01-01T00:00:00.000Z' });
    seedConversation(db, { id: '01JEXPORT00000000000000002', title: 'CON', at: '2026-01-02T00:00:00.000Z' });
    const folder = join(path, '..', 'exported');
    const result = spawnSync(process.execPath, [join(builtFolder, 'anybrain.js'), '--data', join(path, '..'), 'export', '--all', '--format', 'json', '--out', folder], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.stderr).toBe(
      'Exported 1 of 2 conversations\nExported 2 of 2 conversations\n' + `Wrote 2 conversations (4 messages) and index.json to ${folder}\n`,
    );
    expect(result.status).toBe(0);
    expect(readdirSync(folder).sort()).toEqual(['CON-00000002.json', 'etc-00000001.json', 'index.json']);
    expect(readFileSync(join(folder, 'etc-00000001.json'), 'utf8')).toBe(exportConversation(db, '01JEXPORT00000000000000001', 'json').content);
  });
});
