/**
 * A separate process for owner-lock.test.ts: takes its owner lock in a data folder, writes one streaming reply under
 * its owner id, says `ready`, and then waits to be killed. Run as `node --import tsx <this file> DATA_DIR DB_PATH`.
 */
import Database from 'better-sqlite3';
import { holdOwnerLock } from './owner-lock';

const [dataDir, databasePath] = process.argv.slice(2);
if (dataDir === undefined || databasePath === undefined) throw new Error('usage: owner-lock-holder DATA_DIR DB_PATH');

const lock = holdOwnerLock(dataDir);
const database = new Database(databasePath);
database.pragma('busy_timeout = 5000');
database
  .prepare(
    `INSERT INTO messages (id, conversation_id, seq, turn_id, role, text, status, stream_owner, created_at, updated_at)
     VALUES ('held-reply', 'c1', 1, 't1', 'assistant', 'half a repl', 'streaming', ?, 't', 't')`,
  )
  .run(lock.owner);
database.close();
process.stdout.write(`ready ${process.pid} ${lock.owner}\n`);
setInterval(() => undefined, 60_000);
