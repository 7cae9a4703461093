/**
 * `anybrain`: the command line. Works on the same data folder as the app.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError, Option } from 'commander';
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { ApiError, EXPORT_BRANCHES, EXPORT_FORMATS, type ApprovalView } from '../../src-shared/api';
import { chipLabel } from '../../src-shared/receipt';
import { BRAIN_IDS, BRAINS, REASONING_LEVELS, type BrainId } from '../../src-shared/brains';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from '../../src-shared/search';
import { openCore } from '../core/app';
import type { Core } from '../core/core-types';
import { NotAnswering } from '../core/outside/not-answering';
import { createKeychainKeyStore } from '../core/secrets/keychain-key-store';
import { DatabaseFromFutureError } from '../core/store/open';
import { startWebHost } from '../web/server';
import {
  chatCommand,
  compactCommand,
  doctorCommand,
  exportCommand,
  importCommand,
  listCommand,
  repairCommand,
  requestCommand,
  type Output,
} from './commands';
import { resolveDataDir } from './data-dir';
import { keysListCommand, keysRemoveCommand, keysSetCommand } from './keys-command';
import { modelsCommand } from './models-command';
import { usageCommand } from './usage-command';
import { searchCommand } from './search-command';
import { terminalOutput } from './terminal-text';

/** One reasoning option for `chat` and `request`, so both read it alike. */
function reasoningOption(): Option {
  return new Option('--reasoning <level>', "reasoning level (default: the conversation's pick, else the model's own)").choices([...REASONING_LEVELS]);
}

const output: Output = terminalOutput(process.stdout, process.stderr);
// Search makes its own lines safe for a terminal (`terminalText`) and marks its hits in bold, which must reach it.
const searchOutput: Output = { stdout: (text) => void process.stdout.write(text), stderr: output.stderr };

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535');
  return port;
}

function parseLimit(value: string): number {
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) throw new InvalidArgumentError(`a limit is a whole number from 1 to ${MAX_SEARCH_LIMIT}`);
  return limit;
}

/** The command line and the browser mode keep keys in the system keychain (Electron keeps its own). */
function openCoreWithKeychain(dataDir: string, longRunning = false): Core {
  const notAnswering = new NotAnswering();
  const keyStore = createKeychainKeyStore(dataDir, { notAnswering });
  // A long-running host asks the keychain at once, so the window's first commands find the answer (or its absence),
  // and watches its main loop and thread pool.
  if (longRunning) void keyStore.refresh();
  return openCore({ dataDir, keyStore, notAnswering, watchdog: longRunning, keepModelListsFresh: longRunning });
}

async function withCore(dataFlag: string | undefined, work: (core: Core) => Promise<number>): Promise<never> {
  let core: Core | null = null;
  let code: number;
  try {
    core = openCoreWithKeychain(resolveDataDir(dataFlag));
    code = await work(core);
  } catch (error) {
    if (error instanceof ApiError || error instanceof DatabaseFromFutureError) output.stderr(`anybrain: ${error.message}\n`);
    else output.stderr(`anybrain: ${error instanceof Error ? error.message : String(error)}\n`);
    code = 1;
  } finally {
    await core?.dispose();
  }
  await flushed(process.stdout);
  await flushed(process.stderr);
  process.exit(code);
}

/**
 * Resolves once everything written to the stream has been handed to the system. A pipe takes about 64 KiB at a time
 * and Node queues the rest; `process.exit` drops that queue, which cut a large `request` body short.
 */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.writableLength === 0) resolve();
    else stream.write('', () => resolve());
  });
}

/** Asks at the terminal before a tool whose policy is "ask" runs. */
async function terminalApproval(approval: ApprovalView): Promise<'allow' | 'deny'> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question(`\nAllow ${chipLabel(approval.server, approval.tool)} with ${JSON.stringify(approval.input)}? [y/N] `);
    return /^y(es)?$/i.test(answer.trim()) ? 'allow' : 'deny';
  } finally {
    prompt.close();
  }
}

/** Standard input in full; at a terminal, one line typed (or pasted) without echo. */
async function readSecretInput(brain: BrainId): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  process.stderr.write(`Paste the ${BRAINS[brain].label} key and press Enter (it is not shown): `);
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const prompt = createInterface({ input: process.stdin, output: silent, terminal: true });
  try {
    return await prompt.question('');
  } finally {
    prompt.close();
    process.stderr.write('\n');
  }
}

function parseBrain(value: string): BrainId {
  const brain = BRAIN_IDS.find((id) => id === value);
  if (brain === undefined) throw new InvalidArgumentError(`a brain is one of ${BRAIN_IDS.join(', ')}`);
  return brain;
}

const program = new Command()
  .name('anybrain')
  .description('Anybrain: one conversation, seven brains.')
  .option('--data <dir>', 'data folder (default: ANYBRAIN_DATA_DIR, else the app-data folder)')
  .showHelpAfterError();

const dataFlag = () => program.opts<{ data?: string }>().data;

program
  .command('serve')
  .description('run the browser mode on 127.0.0.1 and print its address')
  .option('--port <n>', 'port (0 picks a free one)', parsePort, 0)
  .action(async (options: { port: number }) => {
    const core = openCoreWithKeychain(resolveDataDir(dataFlag()), true);
    const staticDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'renderer');
    const host = await startWebHost({ core, port: options.port, staticDir });
    output.stdout(`Anybrain is running at ${host.launchUrl}\n`);
    output.stderr(
      `Open that address in your browser: the part after #token= is this launch's key and stays in the browser.\n` +
        `Data folder: ${core.dataDir}\nPress Ctrl-C to stop.\n`,
    );
    const shutdown = async () => {
      await host.close();
      await core.dispose();
      process.exit(0);
    };
    process.once('SIGINT', () => void shutdown());
    process.once('SIGTERM', () => void shutdown());
  });

program
  .command('list')
  .description('conversations, newest first')
  .option('--json', 'print a JSON array of {id, title, brain, updated_at}')
  .action((options: { json?: boolean }) => withCore(dataFlag(), (core) => listCommand(core, output, options)));

program
  .command('chat')
  .description('one real turn: the reply streams to stdout, the conversation id goes to stderr')
  .addOption(new Option('--brain <brain>', 'which brain answers').choices([...BRAIN_IDS]).makeOptionMandatory())
  .option('--conversation <id>', 'continue this conversation (default: start a new one)')
  .option('--model <model>', 'model id (default: the brain\u2019s default)')
  .addOption(reasoningOption())
  .option('--regenerate', 'with --conversation and no message: answer the last message of the branch shown again, beside its replies')
  .option('--attach <file>', 'attach a file to the message: an image (PNG, JPEG, WebP, GIF), a PDF, or a text or code file; repeat for more', (file: string, files: string[]) => [...files, file], [] as string[])
  .argument('[text]', 'your message (none with --regenerate; may be left out when files are attached)')
  .action((text: string | undefined, options: { brain: string; conversation?: string; model?: string; reasoning?: string; regenerate?: boolean; attach: string[] }) => {
    const interrupt = new AbortController();
    process.once('SIGINT', () => interrupt.abort());
    const askApproval = process.stdin.isTTY ? terminalApproval : undefined;
    return withCore(dataFlag(), (core) =>
      chatCommand(core, output, { ...options, ...(text === undefined ? {} : { text }), interrupt: interrupt.signal, ...(askApproval ? { askApproval } : {}) }),
    );
  });

program
  .command('export')
  .description('print or write one conversation as a transcript, or every conversation into a folder (--all --out DIR)')
  .option('--conversation <id>', 'conversation id')
  .option('--all', 'every conversation: one file each and an index.json, written into --out DIR; Ctrl-C stops it with nothing written')
  .addOption(new Option('--format <format>', 'transcript format').choices([...EXPORT_FORMATS]).default('json'))
  .option('--out <path>', 'write to this file (with --all: into this folder) instead of stdout')
  .option('--no-tools', 'md and html: leave out the tool, memory and skill calls')
  .option('--reasoning', 'md and html: include each reply\u2019s reasoning')
  .option('--turns <ids>', 'only these turns, comma-separated turn ids, in conversation order')
  .addOption(new Option('--branches <which>', 'md and html: the live path, or every branch with each alternative labelled (json: always every branch)').choices([...EXPORT_BRANCHES]).default('live'))
  .option('--embed', 'json: include each attachment\u2019s bytes (base64), so an import restores the files (md writes them beside --out, html shows images, either way)')
  .action((options: { conversation?: string; all?: boolean; format: string; out?: string; tools: boolean; reasoning?: boolean; turns?: string; branches: string; embed?: boolean }) => {
    const interrupt = new AbortController();
    process.once('SIGINT', () => interrupt.abort());
    return withCore(dataFlag(), (core) => exportCommand(core, output, { ...options, interrupt: interrupt.signal }));
  });

program
  .command('request')
  .description('print the exact JSON body a brain would be sent for the next turn, without sending anything')
  .requiredOption('--conversation <id>', 'conversation id')
  .addOption(new Option('--brain <brain>', 'which brain').choices([...BRAIN_IDS]).makeOptionMandatory())
  .option('--model <model>', 'model id (default: the brain\u2019s default)')
  .addOption(reasoningOption())
  .option('--message <text>', 'the new user message to include')
  .action((options: { conversation: string; brain: string; model?: string; reasoning?: string; message?: string }) =>
    withCore(dataFlag(), (core) => requestCommand(core, output, options)),
  );

program
  .command('compact')
  .description("summarise a conversation's oldest messages into one summary now, to fit a brain's window; Ctrl-C stops it with nothing changed")
  .requiredOption('--conversation <id>', 'conversation id')
  .addOption(new Option('--brain <brain>', 'whose window to make room in (default: the brain the next turn goes to)').choices([...BRAIN_IDS]))
  .option('--preview', 'say what it would fold (how many messages, up to which, by which brain) and change nothing')
  .action((options: { conversation: string; brain?: string; preview?: boolean }) => {
    const interrupt = new AbortController();
    process.once('SIGINT', () => interrupt.abort());
    return withCore(dataFlag(), (core) => compactCommand(core, output, { ...options, interrupt: interrupt.signal }));
  });

program
  .command('import')
  .description(
    "import a transcript v1, or ChatGPT's or Claude's data export (conversations.json, or ChatGPT's zip); prints one new conversation id per line",
  )
  .argument('<file>', 'transcript JSON, conversations.json, or the export zip')
  .action((file: string) => withCore(dataFlag(), (core) => importCommand(core, output, file)));

program
  .command('repair')
  .description(
    'fix stored texts (quote-escapes, chrome) or the marks of the branch each conversation shows (live-path); a dry run unless --apply; --undo restores the last text apply',
  )
  .argument('[kind]', 'quote-escapes | chrome | live-path')
  .option('--apply', 'change the texts or the marks (one transaction; texts reversible with --undo)')
  .option('--undo', 'restore exactly the texts the last --apply changed')
  .action((kind: string | undefined, options: { apply?: boolean; undo?: boolean }) =>
    withCore(dataFlag(), (core) => repairCommand(core, output, { ...options, ...(kind ? { kind } : {}) })),
  );

program
  .command('search')
  .description("full-text search over every conversation's words and titles, best hits first")
  .argument('<terms>', 'words to find (the last may be the start of a word)')
  .option('--json', 'print a JSON array of {conversation_id, conversation_title, message_id, role, brain, snippet, matches, created_at}')
  .option('--limit <n>', 'how many hits (1 to 200)', parseLimit, DEFAULT_SEARCH_LIMIT)
  .action((terms: string, options: { json?: boolean; limit: number }) =>
    withCore(dataFlag(), (core) => searchCommand(core, searchOutput, { query: terms, ...options, color: process.stdout.isTTY === true })),
  );

program
  .command('models')
  .description("each brain's models: window, output limit, reasoning levels, inputs, life cycle, price, and where each figure came from")
  .option('--brain <brain>', 'one brain only')
  .option('--json', 'print a JSON array of {brain, model, default, offered, context_window, output_limit, window_source, window_reported_at, reasoning, inputs, lifecycle, price, source}')
  .option('--refresh', "ask each brain with a key (and Ollama) for its model list first, and keep it; exits 1 if one does not answer")
  .action((options: { brain?: string; json?: boolean; refresh?: boolean }) => withCore(dataFlag(), (core) => modelsCommand(core, output, options)));

program
  .command('usage')
  .description('what the provider requests cost, per day, brain and model: tokens, cached share, and dollars estimated from the bundled price list')
  .option('--conversation <id>', 'one conversation only')
  .option('--since <day>', 'from this day (YYYY-MM-DD, UTC) on')
  .option('--json', 'print a JSON array of {day, brain, model, requests, input_tokens, cache_read_tokens, cache_write_tokens, output_tokens, reasoning_tokens, cost_usd}')
  .action((options: { conversation?: string; since?: string; json?: boolean }) => withCore(dataFlag(), (core) => usageCommand(core, output, options)));

program
  .command('doctor')
  .description('check the data: integrity, interrupted replies, chrome, escaped quotes, the branch each conversation shows; exits 1 on problems')
  .action(() => withCore(dataFlag(), (core) => doctorCommand(core, output)));

const keys = program.command('keys').description("the brains' API keys in the system keychain (never in the data folder)");
keys
  .command('set')
  .description('store a brain\'s key, read from standard input (never from the command line)')
  .argument('<brain>', BRAIN_IDS.join('|'), parseBrain)
  .action(async (brain: BrainId) => {
    const input = await readSecretInput(brain);
    return withCore(dataFlag(), (core) => keysSetCommand(core, output, brain, input));
  });
keys
  .command('list')
  .description("where each brain's key comes from: the keychain, the environment, or nowhere (never the key)")
  .action(() => withCore(dataFlag(), (core) => keysListCommand(core, output)));
keys
  .command('remove')
  .description("remove a brain's stored key")
  .argument('<brain>', BRAIN_IDS.join('|'), parseBrain)
  .action((brain: BrainId) => withCore(dataFlag(), (core) => keysRemoveCommand(core, output, brain)));

await program.parseAsync(process.argv);
