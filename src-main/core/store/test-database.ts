import { openDatabase, type AppDatabase } from './open';

/** A fully migrated in-memory database for repository tests. */
export function openTestDatabase(): AppDatabase {
  return openDatabase(':memory:');
}
