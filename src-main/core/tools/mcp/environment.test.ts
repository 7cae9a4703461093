import { describe, expect, it } from 'vitest';
import { serverEnvironment } from './environment';

describe('serverEnvironment', () => {
  const parent = {
    PATH: '/usr/bin:/bin',
    HOME: '/home/me',
    ANTHROPIC_API_KEY: 'sk-ant-secret',
    OPENAI_API_KEY: 'sk-secret',
    ANYBRAIN_DATA_DIR: '/data',
    BASH_FUNC_x: '() { echo; }',
  };

  it.skipIf(process.platform === 'win32')('keeps only PATH and HOME from the app, then the configured variables', () => {
    expect(serverEnvironment({ LOG_LEVEL: 'debug' }, parent)).toEqual({ PATH: '/usr/bin:/bin', HOME: '/home/me', LOG_LEVEL: 'debug' });
  });

  it('lets the config override an inherited variable', () => {
    expect(serverEnvironment({ PATH: '/opt/bin' }, parent).PATH).toBe('/opt/bin');
  });

  it('never passes a shell function on', () => {
    expect(serverEnvironment({}, { PATH: '() { evil; }' })).toEqual({});
  });
});
