/**
 * The built command line in a real pseudo-terminal (util-linux `script`): a title and a reply that carry escape
 * sequences (set the terminal's title, clear the screen) reach the terminal written out, never as escapes, in `chat`,
 * `list` and `export` to stdout; piped, the export keeps its bytes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BRAINS } from '../../src-shared/brains';
import { useFakeBrains } from '../../e2e/fake-brains/use-fake-brains';
import { buildCliInto, cliBuildFolder } from './testing';

const fake = useFakeBrains();
const folders: string[] = [];
let cli = '';

beforeAll(() => {
  const folder = cliBuildFolder('terminal-cli');
  folders.push(folder);
  buildCliInto(folder);
  cli = join(folder, 'anybrain.js');
}, 180_000);

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const SET_TITLE = '\u001b]0;pwned\u0007';
const CLEAR_SCREEN = '\u001b[2J';
const REPLY = `Sure ${CLEAR_SCREEN}done`;

/** Runs the command line with `args` (passed through the environment, so no shell reads them), in a terminal or a pipe. */
function run(args: readonly string[], env: NodeJS.ProcessEnv, inTerminal: boolean): Promise<string> {
  const argumentEnv = Object.fromEntries(args.map((arg, index) => [`ANYBRAIN_TEST_ARG${index}`, arg]));
  const command = `"${process.execPath}" "${cli}" ${args.map((_arg, index) => `"$ANYBRAIN_TEST_ARG${index}"`).join(' ')}`;
  const [file, argv] = inTerminal ? ['script', ['-qec', command, '/dev/null']] : ['sh', ['-c', command]];
  return new Promise((resolvePromise, reject) => {
    const child = spawn(file, argv, { env: { ...env, ...argumentEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    child.once('error', reject);
    child.once('close', (status) => (status === 0 ? resolvePromise(printed) : reject(new Error(`exit ${status}: ${printed}`))));
  });
}

it('writes out the escape sequences in titles and replies printed to a terminal', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-terminal-'));
  folders.push(dataDir);
  const env: NodeJS.ProcessEnv = { ...process.env, ANYBRAIN_DATA_DIR: dataDir, [BRAINS.kimi.baseUrlVariable]: fake.baseUrlFor('kimi'), [BRAINS.kimi.keyVariable!]: 'test-key' };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  const message = `hello ${SET_TITLE} [reply-base64:${Buffer.from(REPLY).toString('base64')}]`;

  const chatted = await run(['chat', '--brain', 'kimi', message], env, true);
  expect(chatted).toContain('Sure \\x1b[2Jdone');
  const listed = await run(['list'], env, true);
  expect(listed).toContain('hello \\x1b]0;pwned\\x07');
  const conversationId = /^(\S+)\s/.exec(listed.trim())![1]!;
  const exported = await run(['export', '--conversation', conversationId, '--format', 'md'], env, true);
  expect(exported).toContain('Sure \\x1b[2Jdone');
  for (const printed of [chatted, listed, exported]) expect(printed).not.toContain('\u001b');

  const piped = await run(['export', '--conversation', conversationId, '--format', 'md'], env, false);
  expect(piped).toContain(REPLY);
}, 60_000);
