// URLs found in a rendered page, as inspection results may show them: http(s) only, without credentials,
// query or fragment (they often carry tokens and session ids).

export function publicUrl(raw: string, base?: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** The base relative URLs resolve against: the page's own (a <base href>) when it is http(s), else the document's url. */
export function baseFor(pageBase: string | undefined, documentUrl: string): string | undefined {
  if (pageBase && /^https?:/i.test(pageBase)) return pageBase;
  return /^https?:/i.test(documentUrl) ? documentUrl : undefined;
}
