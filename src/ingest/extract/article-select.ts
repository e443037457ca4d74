import type { LightElement, LightNode, LightParent } from '../html/tree.js';
import type { Scan, Stats } from './article-scan.js';

// Second pass of the article extractor: paragraphs vote for the elements that hold them (a parent gets a
// paragraph's whole score, a grandparent half, older ancestors less), the element with the best score after
// discounting link text is the article, it widens to a common ancestor when several near-best candidates
// share one, and its siblings that read like the same article join it. Then, inside the chosen elements,
// containers that look like page furniture (mostly links, forms, image strips, short fragments) are cut.

const POSITIVE = /article|body|content|entry|hentry|h-entry|main|page|post|text|blog|story/i;
const NEGATIVE = /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget/i;

const MIN_PARAGRAPH = 25;
const ANCESTOR_LEVELS = 5;
const CANDIDATES = 5;

export interface SelectOptions {
  /** Let class and id names weigh on scores. */
  weighClasses: boolean;
  /** Cut furniture-looking containers inside the article. */
  clean: boolean;
}

function isHeading(name: string): boolean {
  return name.length === 2 && name[0] === 'h' && name[1]! >= '1' && name[1]! <= '6';
}

/** +25 for each of class and id that sounds like content, -25 for each that sounds like furniture. */
export function classWeight(el: LightElement): number {
  let w = 0;
  for (const v of [el.attrs['class'], el.attrs['id']]) {
    if (!v) continue;
    if (NEGATIVE.test(v)) w -= 25;
    if (POSITIVE.test(v)) w += 25;
  }
  return w;
}

function tagBase(name: string): number {
  switch (name) {
    case 'div':
      return 5;
    case 'pre':
    case 'td':
    case 'blockquote':
      return 3;
    case 'address':
    case 'ol':
    case 'ul':
    case 'dl':
    case 'dd':
    case 'dt':
    case 'li':
    case 'form':
      return -3;
    case 'th':
      return -5;
    default:
      return isHeading(name) ? -5 : 0;
  }
}

const PARAGRAPHS = new Set(['p', 'pre', 'td', 'h2', 'h3', 'h4', 'h5', 'h6']);
const PHRASING_CONTAINERS = new Set(['div', 'section', 'article', 'main']);

function linkDensity(s: Stats | undefined): number {
  return s && s.text ? s.links / s.text : 0;
}

export class Selection {
  private readonly scores = new Map<LightElement, number>();
  private readonly cleaned = new Map<LightElement, boolean>();
  constructor(
    private readonly scan: Scan,
    private readonly body: LightElement,
    private readonly options: SelectOptions,
  ) {}

  private initial(el: LightElement): number {
    return tagBase(el.localName) + (this.options.weighClasses ? classWeight(el) : 0);
  }

  private vote(): void {
    for (const el of this.scan.order) {
      const s = this.scan.stats.get(el)!;
      if (s.text < MIN_PARAGRAPH || el === this.body) continue;
      const paragraph = PARAGRAPHS.has(el.localName) || (PHRASING_CONTAINERS.has(el.localName) && !s.blockChild);
      if (!paragraph) continue;
      const score = 1 + s.commas + Math.min(Math.floor(s.text / 100), 3);
      let up = el.parentNode;
      for (let level = 0; level < ANCESTOR_LEVELS && up && up.nodeType === 1 && up.localName !== 'html'; level++, up = up.parentNode) {
        const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
        this.scores.set(up, (this.scores.get(up) ?? this.initial(up)) + score / divider);
      }
    }
  }

  /** Score after discounting link text; unscored elements count their initial score. */
  final(el: LightElement): number {
    const raw = this.scores.get(el) ?? this.initial(el);
    return raw * (1 - linkDensity(this.scan.stats.get(el)));
  }

  /** The elements that make up the article, in document order. */
  roots(): LightElement[] {
    this.vote();
    const ranked = [...this.scores.keys()].map((el) => ({ el, score: this.final(el) })).sort((a, b) => b.score - a.score).slice(0, CANDIDATES);
    if (!ranked.length || ranked[0]!.el === this.body) return [this.body];
    let top = this.widen(ranked[0]!.el, ranked);
    top = this.climb(top);
    while (top.parentNode !== this.body && top.parentNode?.nodeType === 1 && top.parentNode.firstElementChild === top && !top.nextElementSibling) {
      top = top.parentNode;
    }
    return this.withSiblings(top);
  }

  /** The lowest ancestor holding three near-best candidates, when there are that many. */
  private widen(top: LightElement, ranked: Array<{ el: LightElement; score: number }>): LightElement {
    const best = ranked[0]!.score;
    const near = ranked.slice(1).filter((c) => best > 0 && c.score / best >= 0.75).map((c) => c.el);
    if (near.length < 3) return top;
    for (let up = top.parentNode; up && up.nodeType === 1 && up !== this.body; up = up.parentNode) {
      let inside = 0;
      for (const c of near) if (contains(up, c)) inside++;
      if (inside >= 3) return up;
    }
    return top;
  }

  /** Moves up to an ancestor whose score beats the article's, while scores up the chain hold. */
  private climb(top: LightElement): LightElement {
    let last = this.final(top);
    const floor = last / 3;
    for (let up = top.parentNode; up && up.nodeType === 1 && up !== this.body; up = up.parentNode) {
      if (!this.scores.has(up)) continue;
      const score = this.final(up);
      if (score < floor) break;
      if (score > last) return up;
      last = score;
    }
    return top;
  }

  private withSiblings(top: LightElement): LightElement[] {
    const parent = top.parentNode;
    if (!parent || parent.nodeType !== 1) return [top];
    const topScore = this.final(top);
    const threshold = Math.max(10, topScore * 0.2);
    const topClass = top.attrs['class'];
    const out: LightElement[] = [];
    for (let sib = parent.firstElementChild; sib; sib = sib.nextElementSibling) {
      if (this.scan.cut.has(sib)) continue;
      if (sib === top) {
        out.push(sib);
        continue;
      }
      const bonus = topClass && sib.attrs['class'] === topClass ? topScore * 0.2 : 0;
      if (this.scores.has(sib) && this.final(sib) + bonus >= threshold) out.push(sib);
      else if (sib.localName === 'p' && readsLikeProse(sib, this.scan.stats.get(sib))) out.push(sib);
    }
    return out;
  }

  /** True for a container inside the article that looks like page furniture (roots are never cut). */
  cutInArticle(el: LightElement): boolean {
    if (!this.options.clean) return false;
    let verdict = this.cleaned.get(el);
    if (verdict === undefined) {
      verdict = this.furniture(el);
      this.cleaned.set(el, verdict);
    }
    return verdict;
  }

  private furniture(el: LightElement): boolean {
    const name = el.localName;
    if (isHeading(name)) return classWeight(el) < 0;
    if (!CLEANABLE.has(name)) return false;
    if (name === 'table' && isDataTable(el)) return false;
    const s = this.scan.stats.get(el);
    if (!s) return false;
    const weight = this.options.weighClasses ? classWeight(el) : 0;
    if (weight + (this.scores.get(el) ?? 0) < 0) return true;
    if (s.commas >= 10) return false;
    const list = name === 'ul' || name === 'ol';
    const density = linkDensity(s);
    const inFigure = hasAncestor(el, 'figure');
    if (s.images > 1 && s.paragraphs / s.images < 0.5 && !inFigure) return true;
    if (s.inputs > Math.floor(s.paragraphs / 3)) return true;
    if (!list && s.headings / Math.max(1, s.text) < 0.9 && s.text < MIN_PARAGRAPH && (s.images === 0 || s.images > 2) && !inFigure) return true;
    if (!list && weight < 25 && density > 0.2) return true;
    if (weight >= 25 && density > 0.5) return true;
    return (s.embeds === 1 && s.text < 75) || s.embeds > 1;
  }
}

const CLEANABLE = new Set(['div', 'section', 'ul', 'ol', 'table', 'form', 'fieldset', 'header']);

function readsLikeProse(p: LightElement, s: Stats | undefined): boolean {
  if (!s) return false;
  const density = linkDensity(s);
  if (s.text > 80) return density < 0.25;
  return s.text > 0 && density === 0 && /\.( |$)/.test(p.textContent);
}

function contains(ancestor: LightElement, node: LightElement): boolean {
  for (let up: LightParent | null = node; up; up = up.parentNode) if (up === ancestor) return true;
  return false;
}

function hasAncestor(el: LightElement, name: string): boolean {
  for (let up = el.parentNode; up && up.nodeType === 1; up = up.parentNode) if (up.localName === name) return true;
  return false;
}

/** A table of data rather than layout: headers, a caption or a summary, or more than ten cells. */
function isDataTable(table: LightElement): boolean {
  if (table.attrs['role'] === 'presentation') return false;
  if (table.attrs['summary']) return true;
  let cells = 0;
  const stack: LightNode[] = [...table.childNodes];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.nodeType !== 1) continue;
    const name = n.localName;
    if (name === 'th' || name === 'thead' || name === 'tfoot' || name === 'caption' || name === 'colgroup') return true;
    if (name === 'table') return false;
    if (name === 'td') cells++;
    for (const c of n.childNodes) stack.push(c);
  }
  return cells > 10;
}
