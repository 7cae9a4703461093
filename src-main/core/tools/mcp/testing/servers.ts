/**
 * Launch configs for the MCP servers the tests run: the real npm servers and the fake one, always as Node plus a
 * script path (never a shell, never npx).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpServerConfig } from '../config';

const require = createRequire(import.meta.url);

/** The script a package's `bin` entry points to, from node_modules. */
export function binScript(packageName: string, binName?: string): string {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : binName ? manifest.bin?.[binName] : Object.values(manifest.bin ?? {})[0];
  if (!bin) throw new Error(`${packageName} has no bin script.`);
  const script = join(dirname(manifestPath), bin);
  if (!existsSync(script)) throw new Error(`${packageName}'s bin script ${script} is missing.`);
  return script;
}

export const FAKE_SERVER_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'fake-server.mjs');

function nodeServer(id: string, label: string, args: string[], overrides: Partial<McpServerConfig> = {}): McpServerConfig {
  return { id, label, command: process.execPath, args, env: {}, enabled: true, origin: 'user', ...overrides };
}

export function everythingServer(overrides: Partial<McpServerConfig> = {}): McpServerConfig {
  return nodeServer('everything', 'Everything', [binScript('@modelcontextprotocol/server-everything'), 'stdio'], overrides);
}

export function filesystemServer(root: string, overrides: Partial<McpServerConfig> = {}): McpServerConfig {
  return nodeServer('files', 'Files', [binScript('@modelcontextprotocol/server-filesystem'), root], overrides);
}

export function fakeServer(flags: string[] = [], overrides: Partial<McpServerConfig> = {}): McpServerConfig {
  return nodeServer('fake', 'Fake', [FAKE_SERVER_SCRIPT, ...flags], overrides);
}

/** Whether a process with this id exists (an exited, reaped child does not). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}
