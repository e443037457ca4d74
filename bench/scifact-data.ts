// BEIR SciFact from ../shared/data/scifact: 5,183 abstracts, 809 training claims with relevance judgments.
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Judgments } from './metrics.js';

export const SCIFACT_DIR = new URL('../../shared/data/scifact/', import.meta.url).pathname;

export interface SciDoc {
  id: string;
  title: string;
  text: string;
}

export interface Claim {
  id: string;
  text: string;
  judged: Judgments;
}

export interface SciFact {
  docs: SciDoc[];
  /** Training claims that have at least one judged document, in file order. */
  claims: Claim[];
}

/** The URL a SciFact abstract is stored under in trove. */
export const docUrl = (id: string): string => `https://scifact.example/abstract/${id}`;

const jsonLines = (text: string): Array<Record<string, unknown>> => text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

/** The data set, or null when ../shared/data/scifact is absent. */
export function loadSciFact(): SciFact | null {
  const corpus = `${SCIFACT_DIR}corpus.jsonl.gz`;
  if (!existsSync(corpus)) return null;
  const docs = jsonLines(gunzipSync(readFileSync(corpus)).toString('utf8')).map((r) => ({ id: String(r._id), title: String(r.title ?? ''), text: String(r.text ?? '') }));
  const judged = new Map<string, Map<string, number>>();
  for (const line of readFileSync(`${SCIFACT_DIR}qrels-train.tsv`, 'utf8').split('\n').slice(1)) {
    const [q, d, s] = line.trim().split('\t');
    if (!q || !d) continue;
    const m = judged.get(q) ?? new Map<string, number>();
    m.set(d, Number(s));
    judged.set(q, m);
  }
  const claims = jsonLines(readFileSync(`${SCIFACT_DIR}queries-train.jsonl`, 'utf8'))
    .map((r) => ({ id: String(r._id), text: String(r.text), judged: judged.get(String(r._id)) ?? new Map<string, number>() }))
    .filter((c) => c.judged.size > 0);
  return { docs, claims };
}
