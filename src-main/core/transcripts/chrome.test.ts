import { describe, expect, it } from 'vitest';
import { hasChrome, stripChrome } from './chrome';

describe('chrome', () => {
  it('finds details blocks, step banners and receipt lines, outside code only', () => {
    expect(hasChrome('<details><summary>Tools</summary>read_file</details>\nThe answer.')).toBe(true);
    expect(hasChrome('## Step 2\nDoing it')).toBe(true);
    expect(hasChrome('Answer.\n\n2 memories · 2 tools · 1 skill')).toBe(true);
    expect(hasChrome('Answer.\n3 tools')).toBe(true);
    expect(hasChrome('I used 2 tools to find this.')).toBe(false);
    expect(hasChrome('```html\n<details>x</details>\n## Step 1\n```')).toBe(false);
    expect(hasChrome('Plain words.')).toBe(false);
  });

  it('strips chrome and keeps the words', () => {
    expect(stripChrome('## Step 1\nLooking.\n\n<details><summary>read_file</summary>\noutput\n</details>\n\nThe file says hi.\n\n1 memory · 1 tool')).toBe(
      'Looking.\n\nThe file says hi.',
    );
    expect(stripChrome('Keep `<details>` in code.')).toBe('Keep `<details>` in code.');
  });
});
