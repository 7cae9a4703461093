// @vitest-environment jsdom
/**
 * Every export of the tricky corpus (testing/tricky-corpus.ts): no chrome, Markdown that two independent parsers read
 * alike, HTML that can run nothing and load nothing, and JSON that stays transcript v1 when only some turns are chosen.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import MarkdownIt from 'markdown-it';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditRenderedMarkup } from '../../../e2e/fixtures/untrusted-output/audit';
import type { TranscriptV1 } from '../../../src-shared/transcript';
import type { AppDatabase } from '../store/open';
import { openTestDatabase } from '../store/test-database';
import { hasChrome } from './chrome';
import { exportConversation } from './export';
import { writeTrickyCorpus, type CorpusSummary } from './testing/tricky-corpus';

let db: AppDatabase;
let corpus: CorpusSummary;

beforeAll(() => {
  db = openTestDatabase();
  corpus = writeTrickyCorpus(db);
});

const remark = unified().use(remarkParse).use(remarkGfm).use(remarkRehype).use(rehypeStringify).freeze();
// GFM's extended autolinks are markdown-it's `linkify`; raw HTML is dropped by remark-rehype and escaped here.
const markdownIt = new MarkdownIt({ html: false, linkify: true });

const BLOCKS = 'h1, h2, h3, h4, h5, h6, p, pre, blockquote, ul, ol, li, table, thead, tbody, tr, th, td, hr';

/** Each block element in document order, as its tag and its text with white space collapsed. */
function blockStructure(html: string): string[] {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  return Array.from(body.querySelectorAll(BLOCKS)).map((element) => `${element.tagName.toLowerCase()}: ${(element.textContent ?? '').replace(/\s+/g, ' ').trim()}`);
}

function exportsOf(format: 'md' | 'html', options: Parameters<typeof exportConversation>[3] = {}): string[] {
  return corpus.conversationIds.map((conversationId) => exportConversation(db, conversationId, format, options).content);
}

describe('the tricky corpus', () => {
  it('holds at least 200 messages, twenty-call replies among them', () => {
    expect(corpus.messageCount).toBeGreaterThanOrEqual(200);
    const twenty = db.$client.prepare('SELECT count(*) AS replies FROM (SELECT message_id FROM tool_invocations GROUP BY message_id HAVING count(*) = 20)').get() as { replies: number };
    expect(twenty.replies).toBe(corpus.conversationIds.length);
  });
});

describe('the Markdown export of the tricky corpus', () => {
  it('contains no chrome, with and without calls and reasoning', () => {
    for (const options of [{}, { includeTools: false }, { includeReasoning: true }]) {
      for (const markdown of exportsOf('md', options)) expect(hasChrome(markdown)).toBe(false);
    }
  });

  it('contains no HTML tag of its own: every < in it is escaped or inside code', () => {
    for (const markdown of exportsOf('md', { includeReasoning: true })) {
      const tokens = markdownIt.parse(markdown, {});
      const html = tokens.filter((token) => token.type === 'html_block' || token.children?.some((child) => child.type === 'html_inline'));
      expect(html).toEqual([]);
    }
  });

  it('renders to the same blocks and words in remark and in markdown-it', () => {
    for (const markdown of exportsOf('md', { includeReasoning: true })) {
      const fromRemark = blockStructure(String(remark.processSync(markdown)));
      const fromMarkdownIt = blockStructure(markdownIt.render(markdown));
      expect(fromRemark.length).toBeGreaterThan(100);
      expect(fromRemark).toEqual(fromMarkdownIt);
    }
  });

  it("shows every user's words exactly as typed, in both parsers", () => {
    const userTexts = db.$client.prepare("SELECT DISTINCT text FROM messages WHERE role = 'user'").all() as { text: string }[];
    const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();
    for (const markdown of exportsOf('md')) {
      for (const html of [String(remark.processSync(markdown)), markdownIt.render(markdown)]) {
        const shown = Array.from(new DOMParser().parseFromString(html, 'text/html').body.querySelectorAll('h2 + p')).map((element) =>
          normalise(element.textContent ?? ''),
        );
        for (const { text } of userTexts) if (markdown.includes(normalise(text).slice(0, 4))) expect(shown).toContain(normalise(text.replace(/^[ \t]+/gm, '')));
      }
    }
  });
});

describe('the HTML export of the tricky corpus', () => {
  it('has no script, no event handler, no javascript: URL and nothing that loads from anywhere', () => {
    for (const html of exportsOf('html', { includeReasoning: true })) {
      const document = new DOMParser().parseFromString(html, 'text/html');
      const elements = Array.from(document.querySelectorAll('*'));
      expect(document.querySelectorAll('script, iframe, object, embed, img, link, base, form, svg, math, video, audio, source').length).toBe(0);
      expect(elements.flatMap((element) => element.getAttributeNames().filter((name) => /^on/i.test(name)))).toEqual([]);
      expect(elements.flatMap((element) => element.getAttributeNames().filter((name) => /^(src|srcset|action|formaction|poster|background|ping|data)$/i.test(name)))).toEqual([]);
      const hrefs = elements.map((element) => element.getAttribute('href')).filter((href) => href !== null);
      expect(hrefs.filter((href) => !/^(https?|mailto):/i.test(href))).toEqual([]);
      expect(elements.flatMap((element) => element.getAttributeNames().map((name) => element.getAttribute(name) ?? '')).filter((value) => /javascript:/i.test(value))).toEqual([]);
      expect(Array.from(document.querySelectorAll('style')).map((style) => style.textContent).filter((css) => /@import|url\(/i.test(css ?? ''))).toEqual([]);
      // Only the one CSP meta tag, and the style sheet is the page's own.
      expect(Array.from(document.querySelectorAll('meta')).map((meta) => meta.getAttribute('http-equiv') ?? meta.getAttribute('name') ?? 'charset')).toEqual([
        'charset', 'Content-Security-Policy', 'viewport', 'color-scheme',
      ]);
    }
  });

  it("passes the window's own audit of rendered untrusted text, and holds no chrome in any message's words", () => {
    for (const html of exportsOf('html', { includeReasoning: true })) {
      document.documentElement.innerHTML = new DOMParser().parseFromString(html, 'text/html').documentElement.innerHTML;
      expect(auditRenderedMarkup('.markdown, .plain, .receipt, details')).toEqual([]);
      const words = Array.from(document.querySelectorAll('.markdown, .plain')).map((element) => element.textContent ?? '');
      expect(words.length).toBeGreaterThan(50);
      // Code blocks are words, not chrome; the corpus shows a banner and a receipt line inside one. The user's words
      // are plain text, shown as typed, whatever they look like.
      const prose = Array.from(document.querySelectorAll('.markdown')).map((element) => {
        const copy = element.cloneNode(true) as Element;
        for (const code of Array.from(copy.querySelectorAll('pre'))) code.remove();
        return copy.textContent ?? '';
      });
      expect(prose.filter((text) => hasChrome(text))).toEqual([]);
      expect(document.querySelectorAll('button, input:not([type="checkbox"][disabled]), textarea, select').length).toBe(0);
    }
  });

  it("shows each reply's receipt and its calls from the rows, and none when calls are left out", () => {
    const conversationId = corpus.conversationIds[0]!;
    const withCalls = new DOMParser().parseFromString(exportConversation(db, conversationId, 'html').content, 'text/html');
    const calls = db.$client.prepare('SELECT count(*) AS calls FROM tool_invocations WHERE message_id LIKE ?').get(`${conversationId}-%`) as { calls: number };
    expect(withCalls.querySelectorAll('details.call').length).toBe(calls.calls);
    expect(Array.from(withCalls.querySelectorAll('.receipt-summary')).map((element) => element.textContent)).toContain('20 tools');
    const withoutCalls = new DOMParser().parseFromString(exportConversation(db, conversationId, 'html', { includeTools: false }).content, 'text/html');
    expect(withoutCalls.querySelectorAll('details.call, .receipt').length).toBe(0);
  });
});

describe('the JSON export of chosen turns', () => {
  it('holds only those turns, in conversation order, and validates against transcript v1', () => {
    const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../../src-shared/transcript-v1.schema.json'), 'utf8')) as object;
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
    const conversationId = corpus.conversationIds[1]!;
    const turnIds = [`${conversationId}-t5`, `${conversationId}-notice`, `${conversationId}-t1`];
    const exported = JSON.parse(exportConversation(db, conversationId, 'json', { turnIds }).content) as TranscriptV1;
    validate(exported);
    expect(validate.errors ?? []).toEqual([]);
    expect(exported.messages.map((message) => message.turn_id)).toEqual([
      `${conversationId}-t1`, `${conversationId}-t1`, `${conversationId}-notice`, `${conversationId}-t5`, `${conversationId}-t5`,
    ]);
  });
});
