// Words just before a capitalised name that say what it names: "my sister Ana", "works at Stripe", "moved to Lisbon".

export type CueKind = 'person' | 'organization' | 'place';

const set = (words: string): ReadonlySet<string> => new Set(words.split(' '));

const PERSON_BEFORE = set(
  'wife husband partner sister brother son daughter mother father mom mum dad aunt uncle cousin friend boss colleague coworker ' +
    'co-worker neighbor neighbour girlfriend boyfriend fiance fiancé fiancee fiancée grandma grandpa grandmother grandfather niece ' +
    'nephew teacher doctor dentist therapist lawyer landlord roommate mentor named met meet told asked texted emailed ping cc',
);
const ORG_VERB = set(
  'work works worked working job employed intern interning internship interview interviews interviewed interviewing engineer ' +
    'manager designer developer director founder ceo cto',
);
const ORG_BEFORE = set('joined joining');
const ORG_BY = set('hired acquired');
const ORG_PREPOSITIONS = set('at for by with');
const PLACE_VERB = set(
  'live lives lived living born based located moved moving move up trip trips travel travels traveling travelling traveled ' +
    'travelled flight flights flying fly flew vacation vacationing holiday holidaying arrive arrived arriving staying stayed ' +
    'relocate relocated relocating back',
);
const PLACE_PREPOSITIONS = set('in to from into near');
/** Characters that end a sentence, a line or a label before a name. */
export const SENTENCE_END: ReadonlySet<string> = new Set(['.', '!', '?', '\n', '\r', ':', '…', '|']);
const WORDS = /[\p{L}-]+/gu;

/** Up to four lower-case words before `start`, nearest first, within its sentence and the 40 characters before it. */
function wordsBefore(text: string, start: number): string[] {
  let from = Math.max(0, start - 40);
  for (let i = start - 1; i >= from; i--) if (SENTENCE_END.has(text[i]!)) from = i + 1;
  const words = text.slice(from, start).toLowerCase().match(WORDS) ?? [];
  return words.slice(-4).reverse();
}

/** What the words just before `start` say the name there is, if anything. */
export function cueBefore(text: string, start: number): CueKind | null {
  const [w1 = '', w2 = '', w3 = ''] = wordsBefore(text, start);
  if (PERSON_BEFORE.has(w1)) return 'person';
  if (ORG_BEFORE.has(w1) || (ORG_PREPOSITIONS.has(w1) && ORG_VERB.has(w2)) || (w1 === 'by' && ORG_BY.has(w2))) return 'organization';
  const [prep, verb] = w1 === 'the' ? [w2, w3] : [w1, w2];
  if (PLACE_PREPOSITIONS.has(prep) && PLACE_VERB.has(verb)) return 'place';
  return null;
}
