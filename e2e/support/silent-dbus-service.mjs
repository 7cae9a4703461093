#!/usr/bin/env node
/**
 * A D-Bus service that owns a name on the session bus, takes every method call sent to it and never replies: what a
 * hung Secret Service (a daemon that stopped) or an unlock prompt nobody answers looks like to its callers. Plain
 * JavaScript so Node runs it as is, inside the test's own session bus.
 *
 * Usage: silent-dbus-service.mjs NAME [READY_FILE]
 *   NAME        the well-known name to own (org.freedesktop.secrets, org.gnome.keyring.SystemPrompter)
 *   READY_FILE  written once the name is owned, so a wrapper can wait for it; each call received is appended to it
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import dbus from 'dbus-next';

const [name, readyFile] = process.argv.slice(2);
if (name === undefined) {
  process.stderr.write('usage: silent-dbus-service.mjs NAME [READY_FILE]\n');
  process.exit(2);
}

const bus = dbus.sessionBus();
// Returning true tells the library the call is handled, so it sends no "unknown method" error: the caller waits.
bus.addMethodHandler((message) => {
  if (readyFile !== undefined) appendFileSync(readyFile, `${message.interface}.${message.member}\n`);
  return true;
});
// DBUS_NAME_FLAG_DO_NOT_QUEUE: fail rather than wait behind another owner, so the test knows it holds the name.
const PRIMARY_OWNER = 1;
const reply = await bus.requestName(name, 4);
if (reply !== PRIMARY_OWNER) {
  process.stderr.write(`silent-dbus-service: could not own ${name} (reply ${reply})\n`);
  process.exit(1);
}
if (readyFile !== undefined) writeFileSync(readyFile, `owned ${name}\n`);
