/**
 * The HTML export in real Chromium: a conversation holding the whole untrusted output corpus (e2e/fixtures/
 * untrusted-output) in replies, reasoning, the user's words, tool inputs and outputs, exported and opened as a page,
 * with and without its own CSP. No script runs (a `window.__pwned` tripwire, dialogs, console), no request leaves
 * the page at all, the rendered text passes the window's audit, and a plain conversation is kept as a screenshot of
 * the document a person would share.
 */
import { mkdirSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import type { TranscriptMessage } from '../src-shared/transcript';
import { auditRenderedMarkup } from './fixtures/untrusted-output/audit';
import { ATTACKER_ORIGIN, isCompact, UNTRUSTED_PAYLOADS } from './fixtures/untrusted-output/payloads';
import { command } from './support/app';
import { replyMessage, TRANSCRIPT_TIME, transcriptFile, userMessage, watchPage } from './support/untrusted-pages';

/** Where the export shows model, tool and user text. */
const TEXT_SURFACES = '.markdown, .plain, .receipt, details, .speaker, h1';

interface Tripwires {
  readonly executions: string[];
  readonly requests: string[];
  readonly pageErrors: string[];
}

/**
 * A fresh page for the export with its tripwires armed before it exists: any console call from `__pwned`, any dialog,
 * and any request at all.
 */
async function exportPage(browser: Browser): Promise<{ page: Page; tripwires: Tripwires }> {
  const tripwires: Tripwires = { executions: [], requests: [], pageErrors: [] };
  const context = await browser.newContext();
  await context.addInitScript(() => {
    // Own, non-writable: a clobbering element named __pwned cannot shadow it.
    Object.defineProperty(window, '__pwned', { value: (...args: unknown[]) => console.log(`__TRIPWIRE__ ${args.map(String).join(' ')}`), writable: false, configurable: false });
  });
  context.on('request', (request) => tripwires.requests.push(request.url()));
  const page = await context.newPage();
  watchPage(page, tripwires);
  return { page, tripwires };
}

/** Every payload as a reply; the compact ones also as the user's words, reasoning, a notice and call text. */
function corpusMessages(): TranscriptMessage[] {
  const compact = UNTRUSTED_PAYLOADS.filter((payload) => isCompact(payload));
  const texts = compact.map((payload) => payload.text);
  return [
    userMessage('corpus-user', texts.join('\n\n')),
    ...UNTRUSTED_PAYLOADS.map((payload) => replyMessage(payload.id, payload.text)),
    replyMessage('corpus-tools', 'Tool results.', {
      model_responded: texts[0],
      reasoning: { brain: 'kimi', model: 'kimi-k2.6', text: texts.join('\n\n'), opaque: {} },
      tool_invocations: compact.slice(0, 60).map((payload, index) => ({
        id: `call${index}`, kind: 'tool', server: index % 2 === 0 ? payload.text.slice(0, 60) : null, tool: `tool_${index}`,
        provider_call_id: `call-${index}`, input: { text: payload.text }, output: payload.text, status: index % 7 === 0 ? 'error' : 'ok',
      })),
    }),
    { id: 'corpus-notice', turn_id: 'turn-notice', role: 'system', kind: 'notice', text: texts.slice(0, 40).join(' '), created_at: TRANSCRIPT_TIME },
    { id: 'corpus-summary', turn_id: 'turn-summary', role: 'system', kind: 'summary', text: texts.slice(40, 80).join('\n\n'), created_at: TRANSCRIPT_TIME },
  ];
}

const SHARED_CONVERSATION: TranscriptMessage[] = [
  userMessage('plan-user', 'Can you read notes.md and turn the TODOs into a plan? Keep the <b>quotes</b> as they are.'),
  replyMessage('plan-reply', [
    '## The plan',
    '',
    'Three TODOs, in the order they block each other:',
    '',
    '| step | file | effort |',
    '| --- | --- | ---: |',
    '| Parse the "quoted" names | `parser.ts` | 2 h |',
    '| Store them | `store.ts` | 1 h |',
    '| Show them | `view.tsx` | 30 min |',
    '',
    '1. Start with the parser:',
    '',
    '```ts',
    'const name = line.match(/"((?:[^"\\\\]|\\\\.)*)"/)?.[1] ?? "";',
    '```',
    '',
    '2. Then the store, and **only then** the view. See [the notes](https://example.com/notes).',
  ].join('\n'), {
    brain: 'claude', model_requested: 'claude-opus-4-7', model_responded: 'claude-opus-4-7',
    reasoning: { brain: 'claude', model: 'claude-opus-4-7', text: 'The parser blocks the rest; order by dependency.', opaque: {} },
    tool_invocations: [
      { id: 'mem', kind: 'memory', server: null, tool: 'memory_search', input: { query: 'notes TODO' }, output: 'The user prefers small steps.', status: 'ok' },
      { id: 'read', kind: 'tool', server: 'files', tool: 'read_file', input: { path: 'notes.md' }, output: 'TODO: parse "quoted" names\nTODO: store them\nTODO: show them', status: 'ok' },
    ],
  }),
  userMessage('plan-korean', '고마워요! 한국어로 요약해 줄래요? 🙏'),
  replyMessage('plan-summary', '물론이죠: **파서 → 저장소 → 화면** 순서로 진행하세요. 🎉', { status: 'stopped' }),
  { id: 'plan-notice', turn_id: 'turn-plan-notice', role: 'system', kind: 'notice', text: 'Switched to GLM.', created_at: TRANSCRIPT_TIME },
  userMessage('plan-retry', 'And the tests?'),
  replyMessage('plan-failed', '', {
    brain: 'glm', model_requested: 'glm-5', model_responded: null, status: 'failed',
    error: { code: 'rate-limited', message: 'GLM answered 429: too many requests. Try again in a minute.', retryable: true },
  }),
];

test('the HTML export of the untrusted output corpus runs nothing and loads nothing in Chromium', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const created: string[] = [];
  try {
    const corpus = await command(request, 'importTranscript', { content: transcriptFile('Corpus <script>__pwned(/title/)</script>', corpusMessages()) });
    created.push(corpus.id);
    const exported = await command(request, 'exportConversation', { id: corpus.id, format: 'html', includeReasoning: true });
    const { page, tripwires } = await exportPage(browser);

    // The tripwires themselves work here: a handler that runs and an image that loads are both caught.
    await page.setContent(`<img src="${ATTACKER_ORIGIN}/control.png" onerror="__pwned(/control/)">`);
    await expect.poll(() => [tripwires.executions.length, tripwires.requests.length]).toEqual([1, 1]);
    tripwires.executions.length = 0;
    tripwires.requests.length = 0;

    const cspTag = /<meta http-equiv="Content-Security-Policy"[^>]*>/;
    expect(exported.content).toMatch(cspTag);
    // Without the CSP, only the escaping and the sanitising stand between a payload and the page.
    for (const content of [exported.content, exported.content.replace(cspTag, '')]) {
      await page.setContent(content, { waitUntil: 'load' });
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      // Opening every <details> renders the calls and the reasoning too.
      await page.evaluate(() => document.querySelectorAll('details').forEach((details) => (details.open = true)));
      expect(await page.evaluate(auditRenderedMarkup, TEXT_SURFACES)).toEqual([]);
      expect(await page.locator('script').count()).toBe(0);
      expect(await page.locator('article.message').count()).toBe(UNTRUSTED_PAYLOADS.length + 2);
      expect(await page.locator('details.call').count()).toBe(60);
    }
    expect(tripwires).toEqual({ executions: [], requests: [], pageErrors: [] });
    await page.context().close();
  } finally {
    for (const id of created) await command(request, 'deleteConversation', { id });
  }
});

test('the HTML export reads as a document, in light and dark, and is kept as a screenshot', async ({ browser, request }) => {
  const created: string[] = [];
  try {
    const conversation = await command(request, 'importTranscript', { content: transcriptFile('Turning the TODOs into a plan', SHARED_CONVERSATION) });
    created.push(conversation.id);
    const exported = await command(request, 'exportConversation', { id: conversation.id, format: 'html' });
    const { page, tripwires } = await exportPage(browser);
    mkdirSync('test-results/screenshots', { recursive: true });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.setContent(exported.content, { waitUntil: 'load' });
      await expect(page.locator('h1')).toHaveText('Turning the TODOs into a plan');
      await expect(page.locator('table td').first()).toHaveText('Parse the "quoted" names');
      await expect(page.locator('.receipt-summary')).toHaveText(['1 memory · 1 tool']);
      await expect(page.locator('.status')).toHaveText([
        'Stopped by the user; the text below is what was shown.',
        'Failed: GLM answered 429: too many requests. Try again in a minute.',
      ]);
      expect(await page.locator('pre code .hljs-string').count()).toBeGreaterThan(0);
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe(colorScheme === 'light' ? 'rgb(255, 255, 255)' : 'rgb(13, 17, 23)');
      await page.locator('details.call').first().evaluate((details) => ((details as HTMLDetailsElement).open = true));
      await page.screenshot({ path: `test-results/screenshots/export-html-${colorScheme}.png`, fullPage: true });
    }
    expect(tripwires).toEqual({ executions: [], requests: [], pageErrors: [] });
    await page.context().close();
  } finally {
    for (const id of created) await command(request, 'deleteConversation', { id });
  }
});
