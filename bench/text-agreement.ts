// How much of a reference text an extracted text holds: F1 over word tokens (multisets; case folded;
// letters and digits only), so that whitespace, punctuation and markup differences do not count.

function words(s: string): string[] {
  return s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** 1 when both texts hold the same words as often; 0 when they share none. */
export function wordF1(got: string, want: string): number {
  const wanted = new Map<string, number>();
  const wantWords = words(want);
  for (const w of wantWords) wanted.set(w, (wanted.get(w) ?? 0) + 1);
  const gotWords = words(got);
  if (!gotWords.length || !wantWords.length) return gotWords.length === wantWords.length ? 1 : 0;
  let shared = 0;
  for (const w of gotWords) {
    const left = wanted.get(w) ?? 0;
    if (left > 0) {
      shared++;
      wanted.set(w, left - 1);
    }
  }
  if (!shared) return 0;
  const precision = shared / gotWords.length;
  const recall = shared / wantWords.length;
  return (2 * precision * recall) / (precision + recall);
}
