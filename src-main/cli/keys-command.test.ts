/**
 * `anybrain keys` against a real Secret Service (GNOME Keyring in a D-Bus session of the test's own, see
 * e2e/support/test-keyring.ts): the key goes in through standard input, lives in the keychain and nowhere in the data
 * folder, a turn sends it, and without a keychain the command says why nothing was stored.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRAINS } from '../../src-shared/brains';
import { createTestKeyring, type TestKeyring } from '../../e2e/support/test-keyring';
import { sha256Hex } from '../../e2e/fake-brains/server';
import { useFakeBrains } from '../../e2e/fake-brains/use-fake-brains';
import { buildCliInto, cliBuildFolder } from './testing';
import { keyFromInput } from './keys-command';

const KEY = 'sk-kimi-keychain-5f2c9a';
const fake = useFakeBrains();
let cli = '';
let keyring: TestKeyring;
const folders: string[] = [];

beforeAll(() => {
  const folder = cliBuildFolder('keys-cli');
  folders.push(folder);
  buildCliInto(folder);
  cli = join(folder, 'anybrain.js');
  keyring = createTestKeyring();
}, 180_000);

afterAll(() => {
  keyring?.dispose();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs asynchronously: the fake brains answer from this process, so a blocking spawn would wait on itself. */
function run(command: readonly string[], env: NodeJS.ProcessEnv, input = ''): Promise<Ran> {
  const [file, ...args] = command;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(file!, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (status) => resolvePromise({ status, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** Every byte of every file under `folder`, as text. */
function everyFileText(folder: string): string {
  const parts: string[] = [];
  for (const name of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
    const path = join(folder, name);
    if (statSync(path).isFile()) parts.push(readFileSync(path, 'latin1'));
  }
  return parts.join('\n');
}

function environment(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ANYBRAIN_DATA_DIR: dataDir, [BRAINS.kimi.baseUrlVariable]: fake.baseUrlFor('kimi') };
  delete env[BRAINS.kimi.keyVariable!];
  // Without a session bus of its own, a command finds no keychain (the test keyring brings its own bus).
  delete env.DBUS_SESSION_BUS_ADDRESS;
  return env;
}

describe('anybrain keys', () => {
  it('stores a key from standard input in the keychain, lists it, sends it, and removes it; the data folder never holds it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-keys-'));
    folders.push(dataDir);
    const env = environment(dataDir);
    const anybrain = (...args: string[]) => keyring.wrap([process.execPath, cli, ...args]);

    const stored = await run(anybrain('keys', 'set', 'kimi'), env, `${KEY}\n`);
    expect(stored.stderr).toContain('Stored the Kimi key in the system keychain.\n');
    expect(stored.status).toBe(0);

    const listed = await run(anybrain('keys', 'list'), env);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain('kimi    stored in the system keychain\n');
    expect(listed.stdout).toContain('ollama  needs no key\n');
    expect(listed.stdout).toContain('claude  no key (store one with: anybrain keys set claude, or set ANTHROPIC_API_KEY)\n');
    expect(listed.stdout).not.toContain(KEY);

    // A key in the environment too: the stored one is the one sent.
    const chat = await run(anybrain('chat', '--brain', 'kimi', 'hello from the keychain'), { ...env, MOONSHOT_API_KEY: 'sk-from-environment' });
    expect(chat.status).toBe(0);
    expect(fake.requests().filter((request) => request.brain === 'kimi').map((request) => request.keySha256)).toEqual([sha256Hex(KEY)]);

    const exported = await run(anybrain('export', '--conversation', (await run(anybrain('list', '--json'), env)).stdout.match(/"id": "([^"]+)"/)![1]!, '--format', 'json'), env);
    expect(exported.status).toBe(0);
    expect(exported.stdout).toContain('hello from the keychain');
    expect(exported.stdout).not.toContain(KEY);
    expect(everyFileText(dataDir)).not.toContain(KEY);

    const removed = await run(anybrain('keys', 'remove', 'kimi'), env);
    expect(removed.stderr).toContain('Removed the Kimi key.\n');
    expect((await run(anybrain('keys', 'list'), env)).stdout).toContain('kimi    no key (store one with: anybrain keys set kimi, or set MOONSHOT_API_KEY)\n');
  }, 120_000);

  it('without a keychain, stores nothing and says why and what to do instead', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-keys-'));
    folders.push(dataDir);
    const env = { ...environment(dataDir), HOME: keyring.home };
    const refused = await run([process.execPath, cli, 'keys', 'set', 'kimi'], env, KEY);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      /^anybrain: Keys cannot be stored here: no system keychain answered\. To store keys, start GNOME Keyring or KWallet in your desktop session; until then, set each brain's key in the environment \(.+\)\. Set MOONSHOT_API_KEY in the environment before starting Anybrain\.\n$/,
    );
    const listed = await run([process.execPath, cli, 'keys', 'list'], env);
    expect(listed.status).toBe(0);
    expect(listed.stderr).toMatch(/^Keys cannot be stored here: no system keychain answered\. /);
    expect(everyFileText(dataDir)).not.toContain(KEY);
  }, 60_000);

  it('with a locked keyring whose unlock prompt nobody answers, says so within its time limit and chats with the environment\'s key', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-keys-'));
    folders.push(dataDir);
    const env = environment(dataDir);
    const anybrain = (kind: 'unlocked' | 'locked', ...args: string[]) => keyring.wrap([process.execPath, cli, ...args], kind);
    expect((await run(anybrain('unlocked', 'keys', 'set', 'kimi'), env, `${KEY}\n`)).status).toBe(0);

    const listed = await run(anybrain('locked', 'keys', 'list'), env);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain('kimi    no key in use (the keychain is not answering; or set MOONSHOT_API_KEY)\n');
    expect(listed.stderr).toContain(
      'The system keychain is not answering (no answer within 5 s): keys stored there are not in use until it answers; using the keys from the environment.\n',
    );

    const before = fake.requests().length;
    const chat = await run(anybrain('locked', 'chat', '--brain', 'kimi', 'hello while the keyring is locked'), { ...env, MOONSHOT_API_KEY: 'sk-from-environment' });
    expect(chat.status).toBe(0);
    expect(chat.stdout.length).toBeGreaterThan(0);
    expect(chat.stderr).toContain('Anybrain: The system keychain is not answering; using the keys from the environment.\n');
    expect(fake.requests().slice(before).map((request) => request.keySha256)).toEqual([sha256Hex('sk-from-environment')]);
  }, 120_000);

  it('with a Secret Service that takes every call and never replies, says the keychain is not answering', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-keys-'));
    folders.push(dataDir);
    const listed = await run(keyring.wrap([process.execPath, cli, 'keys', 'list'], 'silent'), environment(dataDir));
    expect(listed.status).toBe(0);
    expect(listed.stderr).toContain('The system keychain is not answering (no answer within 5 s): ');
    const stored = await run(keyring.wrap([process.execPath, cli, 'keys', 'set', 'glm'], 'silent'), environment(dataDir), 'sk-glm\n');
    expect(stored.status).toBe(1);
    expect(stored.stderr).toContain('Keys cannot be stored here: the system keychain is not answering');
  }, 60_000);

  it('with a locked keyring that answers reads, gives a write that waits for its unlock prompt up at its time limit', async () => {
    // A keyring of its own, made by an unlocked session and holding no key: reading finds nothing without asking to
    // unlock, so the command goes on to the write, which waits on a prompt nobody answers.
    const empty = createTestKeyring();
    try {
      const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-keys-'));
      folders.push(dataDir);
      const env = { ...environment(dataDir), HOME: empty.home };
      expect((await run(empty.wrap([process.execPath, cli, 'keys', 'list'], 'unlocked'), env)).status).toBe(0);
      const startedAt = Date.now();
      const stored = await run(empty.wrap([process.execPath, cli, 'keys', 'set', 'glm'], 'locked'), env, 'sk-glm-locked\n');
      expect([stored.status, stored.stderr.split('\n').filter((line) => line !== '').at(-1)]).toEqual([
        1,
        'anybrain: Anybrain could not store the GLM key: the system keychain is not answering (if it was only slow, it may still make the change: `anybrain keys list` and Settings show what it holds). Until then, set ZAI_API_KEY in the environment.',
      ]);
      // A loose bound: the write is given up at 5 s, its helper killed, and the command ends.
      expect(Date.now() - startedAt).toBeLessThan(30_000);
    } finally {
      empty.dispose();
    }
  }, 90_000);

  it('refuses an empty key and one with spaces inside, storing nothing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-keys-'));
    folders.push(dataDir);
    const env = environment(dataDir);
    const anybrain = (...args: string[]) => keyring.wrap([process.execPath, cli, ...args]);
    const empty = await run(anybrain('keys', 'set', 'glm'), env, '  \n');
    expect([empty.status, empty.stderr.split('\n').at(-2)]).toEqual([1, 'No key was given. Pipe it in, e.g.: anybrain keys set glm < key.txt']);
    const spaced = await run(anybrain('keys', 'set', 'glm'), env, 'sk-one two\n');
    expect([spaced.status, spaced.stderr.split('\n').at(-2)]).toEqual([1, 'The key holds spaces or line breaks; an API key has none. Nothing was stored.']);
    expect((await run(anybrain('keys', 'list'), env)).stdout).toContain('glm     no key');
    expect(keyFromInput('  sk-abc \n')).toBe('sk-abc');
  }, 60_000);
});
