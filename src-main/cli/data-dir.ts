import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The same folder the desktop app uses (Electron's userData for the product name "Anybrain"). */
export function platformDataDir(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  switch (platform) {
    case 'darwin':
      return join(homedir(), 'Library', 'Application Support', 'Anybrain');
    case 'win32':
      return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Anybrain');
    default:
      return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Anybrain');
  }
}

/** `--data DIR`, else `ANYBRAIN_DATA_DIR`, else the platform's app-data folder. */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag) return resolve(flag);
  if (env.ANYBRAIN_DATA_DIR) return resolve(env.ANYBRAIN_DATA_DIR);
  return platformDataDir(process.platform, env);
}
