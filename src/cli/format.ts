import type { TargetOutcome } from '../service/documents.js';
import type { FolderSyncReport } from '../service/folders.js';
import type { DocumentDetail } from '../service/documents.js';
import type { SearchResponse } from '../service/search.js';
import type { StatusView } from '../service/status.js';

const bold = (s: string, tty: boolean) => (tty ? `\x1b[1m${s}\x1b[22m` : s);
const dim = (s: string, tty: boolean) => (tty ? `\x1b[2m${s}\x1b[22m` : s);

export function formatSearch(r: SearchResponse, tty: boolean): string {
  const lines: string[] = [];
  r.results.forEach((hit, i) => {
    const partial = hit.match === 'partial' ? ' (partial match)' : hit.match === 'semantic' ? ' (by meaning)' : '';
    lines.push(`${i + 1}. ${bold(hit.title || hit.url, tty)}${partial}`);
    lines.push(`   ${hit.url}`);
    const snippet = tty ? hit.snippet.replace(/\*\*(.+?)\*\*/g, (_, w: string) => bold(w, tty)) : hit.snippet;
    if (snippet) lines.push(`   ${snippet}`);
    lines.push(dim(`   score ${hit.score} · updated ${hit.updated.slice(0, 10)} · id ${hit.id}`, tty));
  });
  lines.push(`${r.results.length} shown, ${r.total} matching (${r.duration_ms} ms)`);
  return lines.join('\n');
}

/** One line per stored target; failed targets are reported on stderr like any other error. */
export function formatAdd(outcomes: TargetOutcome[]): string {
  return outcomes
    .flatMap((o) => (o.result ? [`${o.result.status.padEnd(9)} ${o.result.document.id}  ${o.result.document.url}`] : isSkipped(o) ? [`${'skipped'.padEnd(9)} ${o.target}  (${String(o.error!.details?.rule)})`] : []))
    .join('\n');
}

/** A target a skip rule kept out: counted as skipped, not as a failure. */
export function isSkipped(o: TargetOutcome): boolean {
  return o.error?.code === 'SKIPPED';
}

/** `trove add --json`: one entry per target, and the counts. */
export function addJson(outcomes: TargetOutcome[]): Record<string, unknown> {
  const summary = { added: 0, updated: 0, unchanged: 0, skipped: 0, failed: 0 };
  const results = outcomes.map((o) => {
    if (o.result) {
      summary[o.result.status]++;
      return { target: o.target, ...o.result };
    }
    if (isSkipped(o)) {
      summary.skipped++;
      return { target: o.target, status: 'skipped', rule: o.error!.details?.rule ?? null };
    }
    summary.failed++;
    return { target: o.target, error: { code: o.error!.code, message: o.error!.message } };
  });
  return { results, summary };
}

export function formatDocument(d: DocumentDetail): string {
  const doc = d.document;
  const lines = [
    `${doc.title}`,
    `id:       ${doc.id}`,
    `url:      ${doc.url}`,
    `type:     ${doc.type}    language: ${doc.language}    label: ${doc.label ?? '-'}    source: ${doc.source}`,
    `added:    ${doc.added}`,
    `updated:  ${doc.updated}`,
    `versions: ${d.versions.map((v) => `${v.id} (${v.captured}, ${v.text_length} chars, sha256 ${v.sha256.slice(0, 12)})`).join('; ')}`,
  ];
  for (const [k, v] of Object.entries(doc.metadata)) lines.push(`${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return `${lines.join('\n')}\n\n${d.text}`;
}

export function formatStatus(s: StatusView): string {
  const c = s.counts;
  return [
    `trove ${s.version}`,
    `store:     ${s.store.backend} ${s.store.path} (${(s.store.size_bytes / 1024).toFixed(1)} KiB, schema ${s.store.schema_version})`,
    `instance:  ${s.instance_id} epoch ${s.epoch} revision ${s.revision}`,
    `documents: ${c.documents} (web ${c.web}, local ${c.local}, memory ${c.memory}); versions ${c.versions}; passages ${c.chunks}`,
    formatSemantic(s.semantic),
  ].join('\n');
}

function formatSemantic(m: StatusView['semantic']): string {
  if (!m.enabled) return 'semantic:  off ([semantic] enabled = false)';
  return `semantic:  ${m.model} (${m.dimensions ?? '?'} dimensions) at ${m.endpoint}; ${m.embedded} embedded, ${m.queued} queued, ${m.failed} refused`;
}

/** The counts of a folder sync; refused files are reported on stderr. */
export function formatSync(r: FolderSyncReport): string {
  if (r.directories === 0) return 'no folders configured (add [[indexer.directories]] to the config file)';
  const folders = `${r.directories} folder${r.directories === 1 ? '' : 's'}`;
  return `synced ${folders}: ${r.added} added, ${r.updated} updated, ${r.unchanged} unchanged, ${r.removed} removed, ${r.failed} failed, ${r.skipped} skipped (indexed by other means)`;
}
