import { join } from 'node:path';
import { SqliteStore } from '../../../src/store/sqlite/store.js';
import { tempDir } from '../../helpers.js';
import { storeContract } from '../contract.js';

const t = tempDir();
storeContract('sqlite', {
  open: async () => new SqliteStore({ path: join(t.dir, 'trove.db'), busyTimeoutMs: 5000 }),
  dispose: async () => t.cleanup(),
});
