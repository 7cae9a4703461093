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
export { McpServerHost, type AsyncDisposable, type McpServerState } from './host';
export { DEFAULT_HOST_OPTIONS, type McpHostOptions, type McpToolInfo } from './host-options';
export { McpManager, type McpManagerOptions, type McpServerReport } from './manager';
export { toToolResult } from './result';
export { NAMESPACE_SEPARATOR, WIRE_NAME_PATTERN, namespacedToolName, namespaceTools } from './tool-names';
