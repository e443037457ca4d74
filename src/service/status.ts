import { type App, VERSION } from '../app.js';
import { type ProvidersStatus, providersStatus } from './semantic-status.js';

export interface StatusView {
  version: string;
  store: { backend: string; path: string; size_bytes: number; schema_version: number };
  instance_id: string;
  epoch: number;
  revision: number;
  counts: { documents: number; web: number; local: number; memory: number; versions: number; chunks: number };
  semantic: ProvidersStatus['semantic'];
  llm: ProvidersStatus['llm'];
  searxng: ProvidersStatus['searxng'];
}

export async function getStatus(app: App): Promise<StatusView> {
  const info = await app.store.info();
  return {
    version: VERSION,
    store: { backend: info.backend, path: info.location, size_bytes: info.sizeBytes, schema_version: info.schemaVersion },
    instance_id: info.instanceId,
    epoch: info.epoch,
    revision: info.revision,
    counts: info.counts,
    ...(await providersStatus(app, info.counts.chunks)),
  };
}
