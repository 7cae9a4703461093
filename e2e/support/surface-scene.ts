/**
 * What the specs that walk every main surface (the accessibility scan, the screenshots) set up alike: the theme
 * following the emulated system scheme, a memory to recall, and a built-in tool that may be set to ask. `restore`
 * puts back what they changed in the data folder every spec shares.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { command } from './app';

/** The built-in tool the scenes call, and set to ask for an approval prompt. */
export const ASKING_TOOL = 'current_time';

export interface SurfaceScene {
  /** A word only this run's memory and messages hold. */
  readonly marker: string;
  restore(): Promise<void>;
}

export async function setUpSurfaceScene(page: Page, request: APIRequestContext, theme: 'light' | 'dark', markerPrefix: string): Promise<SurfaceScene> {
  // Stable colours: no transitions caught half way.
  await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
  const marker = `${markerPrefix}${theme}${Date.now()}`;
  const memory = await command(request, 'addMemory', { text: `The lighthouse keeper's cat is called Pixel (${marker}).` });
  const tool = (await command(request, 'listTools', {})).find((entry) => entry.name === ASKING_TOOL && entry.server === null);
  if (tool === undefined) throw new Error(`No built-in tool named ${ASKING_TOOL}.`);
  // The theme follows the emulated system scheme only when no spec left a theme of its own stored.
  const previousTheme = (await command(request, 'getSettings', {})).theme;
  await command(request, 'setTheme', { theme: 'system' });
  return {
    marker,
    restore: async () => {
      await command(request, 'setToolPolicy', { server: null, tool: ASKING_TOOL, policy: tool.policy });
      await command(request, 'deleteMemory', { id: memory.id });
      await command(request, 'setTheme', { theme: previousTheme });
    },
  };
}
