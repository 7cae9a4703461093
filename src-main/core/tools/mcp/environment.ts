/**
 * The environment an MCP server starts with. A server is a third-party program: it gets what it needs to find
 * programs and its home folder, plus what its config sets, and never the app's own environment (which holds the
 * brains' API keys in the CLI and web host).
 */

/**
 * Copied from the app's environment when set. Windows needs its system folders to start most programs (its variable
 * names are case-insensitive, so each is listed once).
 */
const INHERITED_VARIABLES =
  process.platform === 'win32' ? ['PATH', 'HOME', 'USERPROFILE', 'SYSTEMROOT', 'TEMP', 'TMP', 'APPDATA', 'LOCALAPPDATA'] : ['PATH', 'HOME'];

/**
 * The minimal environment merged with the config's own variables (which win). The SDK's stdio transport adds its own
 * short list of harmless variables under these (on POSIX: HOME, LOGNAME, PATH, SHELL, TERM, USER).
 */
export function serverEnvironment(configured: Readonly<Record<string, string>>, parent: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of INHERITED_VARIABLES) {
    const value = parent[name];
    // A value starting with "()" is an exported shell function; never pass one on.
    if (value !== undefined && !value.startsWith('()')) environment[name] = value;
  }
  return { ...environment, ...configured };
}
