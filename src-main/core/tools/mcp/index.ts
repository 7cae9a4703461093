/** MCP servers as tool sources: configuration, one host per server process, and the manager the app owns. */
export {
  MCP_SERVER_ORIGINS,
  addServerConfig,
  admitServer,
  commandProblem,
  mcpServerConfigSchema,
  mcpServerListSchema,
  parseServerConfig,
  parseServerConfigs,
  type ConfigParse,
  type McpServerConfig,
  type McpServerOrigin,
} from './config';
export { serverEnvironment } from './environment';
export { DEFAULT_HOST_OPTIONS, McpServerHost, type AsyncDisposable, type McpHostOptions, type McpServerState, type McpToolInfo } from './host';
export { McpManager, type McpManagerOptions, type McpServerReport } from './manager';
export { toToolResult } from './result';
export { NAMESPACE_SEPARATOR, WIRE_NAME_PATTERN, namespacedToolName, namespaceTools } from './tool-names';
