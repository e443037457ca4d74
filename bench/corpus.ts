// A generated corpus with a Zipf-like vocabulary and log-normal document lengths, reproducible from a seed.

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'z', 'br', 'cl', 'dr', 'st', 'tr', 'pl', 'gr', 'sh', 'ch', 'th'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou', 'io'];
const CODAS = ['', '', 'n', 'r', 's', 'l', 't', 'm', 'nd', 'st', 'rk'];

/** `size` distinct pronounceable words; index 0 is the most frequent. */
export function vocabulary(size: number, rand: () => number): string[] {
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  const words = new Set<string>();
  while (words.size < size) {
    const syllables = 1 + Math.floor(rand() * 3);
    let w = '';
    for (let i = 0; i < syllables; i++) w += pick(ONSETS) + pick(VOWELS) + pick(CODAS);
    words.add(w);
  }
  return [...words];
}

/** Samples ranks with probability proportional to 1 / (rank + 1)^s. */
export function zipf(n: number, s: number, rand: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += 1 / Math.pow(i + 1, s);
    cdf[i] = sum;
  }
  return () => {
    const x = rand() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export interface GeneratedDoc {
  url: string;
  title: string;
  text: string;
  capturedAt: number;
}

export interface Corpus {
  words: string[];
  docs(count: number): Iterable<GeneratedDoc>;
}

const TOPICS = 400;
const TOPIC_WORDS = 600;

/**
 * Documents mix a global Zipf vocabulary with the Zipf vocabulary of one or two topics, so words co-occur
 * the way they do in real reading (a page about a subject repeats that subject's words).
 */
export function makeCorpus(seed: number): Corpus {
  const rand = rng(seed);
  const words = vocabulary(50_000, rand);
  const globalRank = zipf(words.length, 1.07, rand);
  const topicRank = zipf(TOPIC_WORDS, 1.0, rand);
  const topics = Array.from({ length: TOPICS }, () => Array.from({ length: TOPIC_WORDS }, () => 100 + Math.floor(rand() * (words.length - 100))));
  const domains = Array.from({ length: 800 }, (_, i) => `${words[(i * 37) % 5000]}${i}.${['com', 'org', 'net', 'io', 'dev'][i % 5]}`);
  const normal = () => Math.sqrt(-2 * Math.log(rand() || 1e-9)) * Math.cos(2 * Math.PI * rand());
  return {
    words,
    *docs(count: number) {
      const start = Date.UTC(2024, 0, 1);
      for (let i = 0; i < count; i++) {
        const mine = [topics[Math.floor(rand() * TOPICS)]!, topics[Math.floor(rand() * TOPICS)]!];
        const word = () => (rand() < 0.4 ? words[mine[rand() < 0.7 ? 0 : 1]![topicRank()]!]! : words[globalRank()]!);
        const sentence = (n: number) => Array.from({ length: n }, word).join(' ');
        // Median about 180 words, long tail up to ~4,000.
        const length = Math.min(4000, Math.max(20, Math.round(Math.exp(5.2 + 0.8 * normal()))));
        const paragraphs: string[] = [];
        for (let left = length; left > 0; left -= 60) paragraphs.push(`${sentence(Math.min(60, left))}.`);
        const domain = domains[Math.floor(rand() * domains.length)]!;
        yield {
          url: `https://${domain}/${word()}/${i}`,
          title: sentence(3 + Math.floor(rand() * 6)),
          text: paragraphs.join('\n\n'),
          capturedAt: start + i * 60_000,
        };
      }
    },
  };
}
