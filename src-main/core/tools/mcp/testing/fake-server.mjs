#!/usr/bin/env node
/**
 * A small MCP server over stdio whose misbehaviour the tests choose: hang, crash mid-call, exit at start, ignore
 * SIGTERM. Plain JavaScript so Node runs it as is.
 *
 * Arguments:
 *   --marker FILE     append this process's pid and a newline to FILE when it starts
 *   --exit-at-start   write a line to stderr and exit 3 before answering anything
 *   --ignore-sigterm  ignore SIGTERM and stay alive after stdin closes (only SIGKILL ends it)
 *   --tool-name NAME  offer one more tool under NAME (answers like echo)
 *   --start-delay MS  wait this long before answering anything
 *   --env-out FILE    write the environment this process sees, as JSON, to FILE at start
 *   --silent-list     start, then take every tools/list and never answer it (a server stuck on a request)
 *   --silent-list-if FILE  the same, while FILE exists (so a test can let a server list once, then restart it stuck)
 */
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const argv = process.argv.slice(2);
const valueOf = (flag) => {
  const index = argv.indexOf(flag);
  return index >= 0 ? argv[index + 1] : undefined;
};

const environmentOut = valueOf('--env-out');
if (environmentOut) writeFileSync(environmentOut, JSON.stringify(process.env));

const marker = valueOf('--marker');
if (marker) appendFileSync(marker, `${process.pid}\n`);

if (argv.includes('--exit-at-start')) {
  process.stderr.write('fake server: refusing to start (as asked)\n');
  process.exit(3);
}

if (argv.includes('--ignore-sigterm')) {
  process.on('SIGTERM', () => process.stderr.write('fake server: ignoring SIGTERM\n'));
  setInterval(() => {}, 60_000);
}

const extraToolName = valueOf('--tool-name');
const objectSchema = (properties, required = []) => ({ type: 'object', properties, required });

const tools = [
  { name: 'echo', description: 'Returns the message.', inputSchema: objectSchema({ message: { type: 'string' } }, ['message']) },
  { name: 'sleep', description: 'Answers after ms milliseconds.', inputSchema: objectSchema({ ms: { type: 'number' } }, ['ms']) },
  { name: 'crash', description: 'Exits the process mid-call after ms milliseconds.', inputSchema: objectSchema({ ms: { type: 'number' } }) },
  { name: 'pid', description: 'The server process id.', inputSchema: objectSchema({}) },
  { name: 'env', description: 'The names of the environment variables the server sees.', inputSchema: objectSchema({}) },
  { name: 'mixed', description: 'Text, an image and a failure flag.', inputSchema: objectSchema({}) },
  { name: 'fail', description: 'A tool-level error.', inputSchema: objectSchema({}) },
];
if (extraToolName) tools.push({ name: extraToolName, description: '', inputSchema: objectSchema({ message: { type: 'string' } }) });

const text = (value) => ({ content: [{ type: 'text', text: String(value) }] });

const server = new Server({ name: 'fake-server', version: '1.0.0' }, { capabilities: { tools: {} } });
const silentWhile = valueOf('--silent-list-if');
const silentList = () => argv.includes('--silent-list') || (silentWhile !== undefined && existsSync(silentWhile));
// `--reverse-list`: the same tools, listed in the opposite order (servers promise no order).
const listed = argv.includes('--reverse-list') ? [...tools].reverse() : tools;
server.setRequestHandler(ListToolsRequestSchema, () => (silentList() ? new Promise(() => {}) : Promise.resolve({ tools: listed })));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const input = request.params.arguments ?? {};
  switch (request.params.name) {
    case 'echo':
      return text(input.message);
    case 'sleep':
      await new Promise((resolve) => setTimeout(resolve, Number(input.ms)));
      return text(`slept ${input.ms} ms`);
    case 'crash':
      setTimeout(() => {
        process.stderr.write('fake server: crashing (as asked)\n');
        process.exit(7);
      }, Number(input.ms ?? 0));
      return new Promise(() => {});
    case 'pid':
      return text(process.pid);
    case 'env':
      return text(Object.keys(process.env).sort().join(','));
    case 'mixed':
      return {
        content: [
          { type: 'text', text: 'before' },
          { type: 'image', data: Buffer.alloc(1234, 1).toString('base64'), mimeType: 'image/png' },
          { type: 'text', text: 'after' },
        ],
      };
    case 'fail':
      return { content: [{ type: 'text', text: 'it went wrong' }], isError: true };
    default:
      if (request.params.name === extraToolName) return text(input.message);
      return { content: [{ type: 'text', text: `unknown tool ${request.params.name}` }], isError: true };
  }
});

const startDelay = Number(valueOf('--start-delay') ?? 0);
if (startDelay > 0) await new Promise((resolve) => setTimeout(resolve, startDelay));
await server.connect(new StdioServerTransport());
