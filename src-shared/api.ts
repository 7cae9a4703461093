/**
 * (contract) The one typed Api between the renderer and the main process.
 *
 * Both transports (Electron IPC and the loopback web host) are derived from `commandSchemas`: every command's input is
 * validated with zod at the entry of the main process, and `Api` (what the renderer calls) is the mapped promise type.
 * Extend by adding commands and events; never change the meaning of an existing one.
 */
export * from './api/views';
export * from './api/commands';
export * from './api/events';
export * from './api/errors';
export * from './api/transport';
