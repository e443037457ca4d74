// Cutting what no extractor reads out of a page before it is parsed: comments, and the bodies of scripts,
// styles, SVG drawings and templates. A parsed DOM costs far more per node than the scan below costs per
// byte, and on real pages these blocks are about half of the HTML (bench/extraction.ts: 165 KB on average,
// 90 KB once cut).
//
// Kept on purpose:
// - <script type="application/ld+json"> (and any JSON script): the metadata extractor and readability read
//   JSON-LD from it.
// - <noscript>: readability swaps lazy images for the ones a <noscript> holds, and the metadata extractor
//   finds video frames in it; on real pages it is under 1 KB.
//
// A scan with indexOf-like regular expressions that never look back further than the next "<": linear even
// on hostile input. An unclosed block ends the cutting (the rest of the page is kept as it is).

/** Opening of a block: a comment, or a tag whose attributes hold no "<" or ">" (others are left alone). */
const INERT_OPEN = /<!--|<(script|style|svg|template)\b([^<>]{0,2000})>/gi;
const INERT_CLOSE: Record<string, RegExp> = {
  script: /<\/script/gi,
  style: /<\/style/gi,
  svg: /<\/svg/gi,
  template: /<\/template/gi,
};
const JSON_SCRIPT = /\btype\s*=\s*["']?application\/(ld\+)?json/i;

/** Where the block opened by `m` ends (just past it), or -1 when it never closes. */
function blockEnd(html: string, m: RegExpExecArray, from: number): number {
  const tag = m[1]?.toLowerCase();
  if (!tag) {
    const close = html.indexOf('-->', m.index + 4);
    return close < 0 ? -1 : close + 3;
  }
  // <svg/> closes itself (the parser reads SVG as XML); <script/> and <style/> do not in HTML.
  if (tag === 'svg' && (m[2] ?? '').trimEnd().endsWith('/')) return from;
  const closer = INERT_CLOSE[tag]!;
  closer.lastIndex = from;
  const close = closer.exec(html);
  if (!close) return -1;
  const end = html.indexOf('>', close.index);
  return end < 0 ? -1 : end + 1;
}

/** The page without comments and the bodies of non-JSON scripts, styles, SVG and templates. */
export function withoutInertBlocks(html: string): string {
  const out: string[] = [];
  let pos = 0;
  INERT_OPEN.lastIndex = 0;
  for (let m = INERT_OPEN.exec(html); m; m = INERT_OPEN.exec(html)) {
    const end = blockEnd(html, m, INERT_OPEN.lastIndex);
    if (end < 0) break;
    INERT_OPEN.lastIndex = end;
    if (m[1]?.toLowerCase() === 'script' && JSON_SCRIPT.test(m[2] ?? '')) continue;
    out.push(html.slice(pos, m.index));
    pos = end;
  }
  if (pos === 0) return html;
  out.push(html.slice(pos));
  return out.join('');
}
