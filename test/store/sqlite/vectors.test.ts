import { join } from 'node:path';
import { SqliteStore } from '../../../src/store/sqlite/store.js';
import { tempDir } from '../../helpers.js';
import { vectorsContract } from '../contract-vectors.js';

const t = tempDir();
const path = join(t.dir, 'trove.db');
vectorsContract('sqlite', {
  open: async () => new SqliteStore({ path, busyTimeoutMs: 5000 }),
  reopen: async () => new SqliteStore({ path, busyTimeoutMs: 5000 }),
  dispose: async () => t.cleanup(),
});
