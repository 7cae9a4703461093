import type { AnybrainBridge } from '../src-shared/api';

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in browser mode. */
    readonly anybrain?: AnybrainBridge;
  }
}

export {};
