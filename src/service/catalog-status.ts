import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { type App, VERSION } from '../app.js';
import { type FolderEntry, resolveFolders } from '../ingest/folders.js';
import type { CatalogAccess } from '../store/types.js';
import { computeBuildId } from './build-id.js';
import { catalogUri } from './catalog-uris.js';
import type { Diagnostic, LifecyclePhase } from './lifecycle.js';
import { renderCapability } from './render/host.js';

// get_status: lifecycle, identity (instanceId, epoch, revision, buildId), what the caller can see, and
// what this server can do. Counts are of the caller's view; diagnostics name no paths and are shown to
// the owner and admins only.

export type StatusLifecycle = LifecyclePhase | 'updating';

export interface Capability {
  available: boolean;
  reason?: string;
}

export interface CatalogStatus {
  lifecycle: StatusLifecycle;
  /** A folder sync or import is changing the catalog; reads see the latest completed revision. */
  updating: boolean;
  instanceId: string;
  epoch: number;
  revision: number;
  buildId: string;
  version: string;
  counts: { documents: number; web: number; local: number; memory: number; versions: number };
  diagnostics: Diagnostic[];
  capabilities: {
    toolsets: string[];
    resources: boolean;
    semantic: Capability;
    llm: Capability;
    searxng: Capability;
    inspection: Capability;
  };
  uri: string;
}

function configured(on: boolean, what: string): Capability {
  return on ? { available: true } : { available: false, reason: `${what} is not configured` };
}

/** Configured folders that are not there (a missing or unmounted disk): by position, never by path. */
function folderDiagnostics(app: App): Diagnostic[] {
  const entries = app.config.indexer.directories as FolderEntry[];
  const opts = { defaultMaxBytes: app.config.indexer.max_file_bytes, baseDir: app.config.configFile ? dirname(app.config.configFile) : process.cwd(), home: homedir() };
  return entries.flatMap((entry, index) => {
    try {
      const [folder] = resolveFolders([entry], opts);
      return statSync(folder!.root).isDirectory() ? [] : [{ code: 'FOLDER_MISSING', message: `indexer.directories[${index}] is not a directory` }];
    } catch {
      return [{ code: 'FOLDER_MISSING', message: `indexer.directories[${index}] is missing or not a directory; its documents are kept` }];
    }
  });
}

async function embeddingDiagnostics(app: App): Promise<Diagnostic[]> {
  if (!app.embeddings) return [];
  const counts = await app.store.embeddingCounts();
  const out: Diagnostic[] = [];
  if (counts.queued > 0) out.push({ code: 'EMBEDDINGS_QUEUED', message: `${counts.queued} passages wait for their embedding`, count: counts.queued });
  if (counts.failed > 0) out.push({ code: 'EMBEDDINGS_FAILED', message: `${counts.failed} passages were refused by the embeddings endpoint`, count: counts.failed });
  const error = app.embedder?.state.lastError;
  if (error) out.push({ code: 'EMBEDDINGS_FAILING', message: `the embeddings endpoint is failing (${error.code})` });
  return out;
}

export async function getCatalogStatus(app: App, access: CatalogAccess): Promise<CatalogStatus> {
  const state = await app.store.instanceState();
  const counts = await app.store.countCatalog(access);
  app.catalog.buildId ??= computeBuildId();
  const running = app.lifecycle.running();
  const phase = app.lifecycle.phase;
  const updating = phase !== 'closed' && running.length > 0;
  return {
    lifecycle: updating ? 'updating' : phase,
    updating,
    instanceId: state.instanceId,
    epoch: state.epoch,
    revision: state.revision,
    buildId: app.catalog.buildId,
    version: VERSION,
    counts: { documents: counts.web + counts.local + counts.memory, ...counts },
    // About the instance's own configuration and work: for those who see every document (owner, admins).
    diagnostics: access.scope.all ? [...app.lifecycle.diagnostics(), ...folderDiagnostics(app), ...(await embeddingDiagnostics(app))] : [],
    capabilities: {
      toolsets: [...app.config.mcp.toolsets],
      resources: app.config.mcp.toolsets.includes('catalog'),
      semantic: configured(app.embeddings !== undefined, 'semantic search ([semantic] enabled with an embeddings endpoint)'),
      llm: configured(app.llm !== undefined, 'an LLM endpoint ([llm])'),
      searxng: configured(app.searxng !== undefined, 'SearXNG ([searxng])'),
      inspection: renderCapability(app),
    },
    uri: catalogUri.status(state.instanceId),
  };
}
