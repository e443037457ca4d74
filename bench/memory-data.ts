// A deterministic conversational memory set: facts a user tells an assistant (people, places, preferences,
// projects, dates, work, health, pets) and questions asked later in other words, each with the facts that answer it.
// Many facts share a template (ten relatives who each live somewhere), so the others are the distractors.
import { rng } from './corpus.js';

export interface Fact {
  id: string;
  content: string;
  context: string;
}

export interface Question {
  text: string;
  /** Ids of the facts that answer it. */
  answers: string[];
  /** How the question relates to its fact: shares an entity name, shares only ordinary words, or shares no content word. */
  overlap: 'entity' | 'words' | 'none';
}

export interface MemorySet {
  facts: Fact[];
  questions: Question[];
}

const FIRST = [
  'Ana', 'Priya', 'Tomasz', 'Mei', 'Jonas', 'Fatima', 'Lucas', 'Ingrid', 'Kwame', 'Sofia', 'Hiroshi', 'Elena', 'Diego', 'Aisha', 'Mateo',
  'Noor', 'Oskar', 'Leila', 'Ravi', 'Chloe', 'Emeka', 'Yuki', 'Marta', 'Samir', 'Greta', 'Idris', 'Lena', 'Pablo', 'Zara', 'Felix',
];
const RELATIONS = ['cousin', 'neighbour', 'colleague', 'friend', 'mentor', 'roommate', 'flatmate', 'classmate', 'teammate', 'godparent'];
const CITIES = ['Lisbon', 'Berlin', 'Nairobi', 'Osaka', 'Toronto', 'Porto', 'Krakow', 'Medellin', 'Auckland', 'Tallinn', 'Valencia', 'Leeds', 'Hanoi', 'Montreal', 'Bergen'];
const JOBS = ['nurse', 'architect', 'pilot', 'pharmacist', 'carpenter', 'data analyst', 'violin teacher', 'paramedic', 'translator', 'baker'];
const DRINKS = ['green tea', 'espresso', 'oat milk latte', 'rooibos', 'sparkling water', 'hot chocolate', 'matcha', 'filter coffee'];
const CUISINES = ['Ethiopian', 'Georgian', 'Peruvian', 'Korean', 'Lebanese', 'Sicilian', 'Vietnamese', 'Oaxacan'];
const ALLERGENS = ['peanuts', 'shellfish', 'penicillin', 'cat hair', 'sesame', 'bee stings', 'latex', 'kiwi'];
const HOBBIES = ['bouldering', 'baking sourdough', 'birdwatching', 'restoring old bicycles', 'playing chess online', 'trail running', 'throwing pottery', 'salsa dancing'];
const EDITORS = ['Neovim', 'Helix', 'Emacs', 'Zed', 'Sublime Text'];
const LANGUAGES = ['Rust', 'Elixir', 'Go', 'Kotlin', 'OCaml', 'TypeScript', 'Haskell', 'Zig'];
const PROJECTS = ['Falcon', 'Heron', 'Juniper', 'Quasar', 'Tundra', 'Marigold', 'Obsidian', 'Pelican', 'Saffron', 'Vortex'];
const PROJECT_KINDS = ['billing service', 'mobile banking app', 'search indexer', 'inventory dashboard', 'chat bot', 'payroll importer', 'photo archive', 'weather station firmware'];
const COMPANIES = ['Northwind', 'Globex', 'Initech', 'Umbrella Health', 'Stark Logistics', 'Wayne Analytics', 'Acme Robotics', 'Cyberdyne Labs'];
const BREEDS = ['golden retriever', 'dachshund', 'border collie', 'greyhound', 'beagle', 'corgi'];
const CATS = ['tabby cat', 'Siamese cat', 'Maine Coon', 'black cat'];
const PET_NAMES = ['Biscuit', 'Pepper', 'Miso', 'Juno', 'Waffles', 'Ziggy', 'Mochi', 'Olive', 'Pickles', 'Nacho'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const INSTRUMENTS = ['cello', 'trumpet', 'harp', 'drums', 'flute', 'accordion'];
const SPORTS = ['volleyball', 'fencing', 'rowing', 'badminton', 'water polo', 'handball'];

type Slots = Record<string, string>;

interface Template {
  context: string;
  /** How many facts of this template to make. */
  count: number;
  slots: (pick: Picker) => Slots;
  fact: (s: Slots) => string;
  questions: Array<{ overlap: Question['overlap']; text: (s: Slots) => string }>;
}

type Picker = <T>(list: readonly T[]) => T;

const TEMPLATES: Template[] = [
  {
    context: 'family', count: 28,
    slots: (p) => ({ name: p(FIRST), rel: p(RELATIONS), city: p(CITIES) }),
    fact: (s) => `My ${s.rel} ${s.name} lives in ${s.city}.`,
    questions: [
      { overlap: 'entity', text: (s) => `Where does ${s.name} live these days?` },
      { overlap: 'entity', text: (s) => `Which city is ${s.name} based in?` },
    ],
  },
  {
    context: 'people', count: 28,
    slots: (p) => ({ name: p(FIRST), job: p(JOBS) }),
    fact: (s) => `${s.name} works as a ${s.job}.`,
    questions: [
      { overlap: 'entity', text: (s) => `What does ${s.name} do for a living?` },
      { overlap: 'entity', text: (s) => `What is ${s.name}'s job?` },
    ],
  },
  {
    context: 'people', count: 24,
    slots: (p) => ({ name: p(FIRST), day: String(1 + Math.floor(p([...Array(28).keys()]))), month: p(MONTHS) }),
    fact: (s) => `${s.name}'s birthday is on ${s.month} ${s.day}.`,
    questions: [
      { overlap: 'entity', text: (s) => `When was ${s.name} born?` },
      { overlap: 'entity', text: (s) => `When should I send ${s.name} a birthday card?` },
    ],
  },
  {
    context: 'preferences', count: 24,
    slots: (p) => ({ name: p(FIRST), drink: p(DRINKS), other: p(DRINKS) }),
    fact: (s) => `${s.name} always orders ${s.drink} instead of ${s.other} when we meet for breakfast.`,
    questions: [
      { overlap: 'entity', text: (s) => `What should I order for ${s.name} at breakfast?` },
      { overlap: 'entity', text: (s) => `What does ${s.name} like to drink in the morning?` },
    ],
  },
  {
    context: 'preferences', count: 20,
    slots: (p) => ({ name: p(FIRST), cuisine: p(CUISINES) }),
    fact: (s) => `${s.name}'s favourite restaurants are all ${s.cuisine}.`,
    questions: [
      { overlap: 'entity', text: (s) => `What kind of food does ${s.name} enjoy most?` },
      { overlap: 'words', text: (s) => `Which friend would love a ${s.cuisine} dinner?` },
    ],
  },
  {
    context: 'health', count: 16,
    slots: (p) => ({ name: p(FIRST), allergen: p(ALLERGENS) }),
    fact: (s) => `${s.name} is allergic to ${s.allergen}.`,
    questions: [
      { overlap: 'entity', text: (s) => `Does ${s.name} have any allergies?` },
      { overlap: 'words', text: (s) => `Who reacts badly to ${s.allergen}?` },
    ],
  },
  {
    context: 'hobbies', count: 20,
    slots: (p) => ({ name: p(FIRST), hobby: p(HOBBIES) }),
    fact: (s) => `On weekends ${s.name} spends hours ${s.hobby}.`,
    questions: [
      { overlap: 'entity', text: (s) => `What are ${s.name}'s hobbies?` },
      { overlap: 'words', text: (s) => `Who do I know that is into ${s.hobby}?` },
    ],
  },
  {
    context: 'programming_preferences', count: 6,
    slots: (p) => ({ editor: p(EDITORS), lang: p(LANGUAGES), other: p(LANGUAGES) }),
    fact: (s) => `For side projects the user writes ${s.lang} in ${s.editor} and avoids ${s.other}.`,
    questions: [
      { overlap: 'words', text: () => 'Which code editor does the user prefer for personal projects?' },
      { overlap: 'entity', text: (s) => `Does the user like programming in ${s.other}?` },
    ],
  },
  {
    context: 'projects', count: 10,
    slots: (p) => ({ project: p(PROJECTS), kind: p(PROJECT_KINDS), lang: p(LANGUAGES) }),
    fact: (s) => `Project ${s.project} is the ${s.kind}, written in ${s.lang}.`,
    questions: [
      { overlap: 'entity', text: (s) => `What is ${s.project} about?` },
      { overlap: 'entity', text: (s) => `Which language is ${s.project} built with?` },
    ],
  },
  {
    context: 'projects', count: 10,
    slots: (p) => ({ project: p(PROJECTS), day: String(1 + Math.floor(p([...Array(28).keys()]))), month: p(MONTHS) }),
    fact: (s) => `The ${s.project} deadline moved to ${s.day} ${s.month}.`,
    questions: [
      { overlap: 'entity', text: (s) => `When is ${s.project} due?` },
      { overlap: 'words', text: (s) => `Which deadline falls in ${s.month}?` },
    ],
  },
  {
    context: 'work', count: 20,
    slots: (p) => ({ name: p(FIRST), company: p(COMPANIES), project: p(PROJECTS) }),
    fact: (s) => `${s.name} from ${s.company} designs the screens for ${s.project}.`,
    questions: [
      { overlap: 'entity', text: (s) => `Who is the designer on ${s.project}?` },
      { overlap: 'entity', text: (s) => `Where does ${s.name} work?` },
    ],
  },
  {
    context: 'work', count: 6,
    slots: (p) => ({ company: p(COMPANIES), name: p(FIRST) }),
    fact: (s) => `At ${s.company} the user reports to ${s.name}, who runs the platform team.`,
    questions: [
      { overlap: 'entity', text: (s) => `Who is my manager at ${s.company}?` },
      { overlap: 'words', text: () => 'Who leads the platform group?' },
    ],
  },
  {
    context: 'pets', count: 20,
    slots: (p) => ({ name: p(FIRST), pet: p([...BREEDS, ...CATS]), petName: p(PET_NAMES) }),
    fact: (s) => `${s.name} adopted a ${s.pet} called ${s.petName}.`,
    questions: [
      { overlap: 'entity', text: (s) => `What kind of animal is ${s.petName}?` },
      { overlap: 'entity', text: (s) => `What is the name of ${s.name}'s pet?` },
    ],
  },
  {
    context: 'travel', count: 20,
    slots: (p) => ({ city: p(CITIES), month: p(MONTHS), name: p(FIRST) }),
    fact: (s) => `In ${s.month} I'm flying to ${s.city} for ${s.name}'s wedding.`,
    questions: [
      { overlap: 'entity', text: (s) => `When is the trip to ${s.city}?` },
      { overlap: 'entity', text: (s) => `Whose wedding am I travelling for?` },
    ],
  },
  {
    context: 'family', count: 16,
    slots: (p) => ({ name: p(FIRST), instrument: p(INSTRUMENTS), sport: p(SPORTS) }),
    fact: (s) => `My kid ${s.name} takes ${s.instrument} lessons on Tuesdays and plays ${s.sport} at school.`,
    questions: [
      { overlap: 'entity', text: (s) => `What instrument is ${s.name} learning?` },
      { overlap: 'words', text: (s) => `Which of my children plays ${s.sport}?` },
    ],
  },
  {
    context: 'places', count: 6,
    slots: (p) => ({ city: p(CITIES), year: String(2008 + Math.floor(p([...Array(16).keys()]))) }),
    fact: (s) => `The user moved to ${s.city} in ${s.year} and rented a flat near the old harbour.`,
    questions: [
      { overlap: 'entity', text: (s) => `When did I relocate to ${s.city}?` },
      { overlap: 'none', text: () => 'Where did I find an apartment by the port?' },
    ],
  },
  {
    context: 'health', count: 6,
    slots: (p) => ({ name: p(FIRST), month: p(MONTHS) }),
    fact: (s) => `Dr ${s.name} is the user's dentist; the next check-up is in ${s.month}.`,
    questions: [
      { overlap: 'words', text: () => 'Who is my dentist?' },
      { overlap: 'none', text: () => 'When should I get my teeth looked at?' },
    ],
  },
];

/** Ordinary remarks that answer nothing asked: they share everyday words with the questions. */
const CHATTER = [
  'The user finds long meetings on Mondays exhausting.',
  'It rained all week, so the weekend plans changed.',
  'The user thinks the new office coffee machine is too loud.',
  'Remember to water the plants before travelling.',
  'The user wants a reminder to renew the passport next year.',
  'The user is reading a long novel about a lighthouse keeper.',
  'Breakfast meetings work better than dinner for the user.',
  'The user dislikes video calls before nine in the morning.',
  'The user keeps receipts in a shoebox and means to digitise them.',
  'The team lunch on Fridays is usually pizza.',
  'The user is learning to cook without recipes.',
  'The user asked for shorter answers with code examples.',
];

/** The data set for `seed`: the same seed always gives the same facts, questions and answers. */
export function makeMemorySet(seed = 20261130): MemorySet {
  const rand = rng(seed);
  const facts: Fact[] = [];
  const questions: Question[] = [];
  const byContent = new Map<string, string>();
  for (const t of TEMPLATES) {
    const pick = freshPicker(rand);
    for (let i = 0; i < t.count; i++) {
      const slots = t.slots(pick);
      const content = t.fact(slots);
      if (byContent.has(content)) continue;
      const id = `f${facts.length + 1}`;
      byContent.set(content, id);
      facts.push({ id, content, context: t.context });
      const q = t.questions[Math.floor(rand() * t.questions.length)]!;
      questions.push({ text: q.text(slots), answers: [id], overlap: q.overlap });
    }
  }
  for (const content of CHATTER) facts.push({ id: `f${facts.length + 1}`, content, context: 'general' });
  return { facts, questions: mergeSameQuestions(questions) };
}

/**
 * Picks without repeating an item of a list within one template until the list is used up, so that two
 * facts of a template never name the same person or project (a question about one would be answered by both).
 */
function freshPicker(rand: () => number): Picker {
  const used = new Map<readonly unknown[], Set<number>>();
  return <T>(list: readonly T[]): T => {
    const taken = used.get(list) ?? new Set<number>();
    if (taken.size >= list.length) taken.clear();
    let i = Math.floor(rand() * list.length);
    while (taken.has(i)) i = (i + 1) % list.length;
    taken.add(i);
    used.set(list, taken);
    return list[i]!;
  };
}

/** Two facts asked by the same words ("Who is my dentist?") make one question with both answers. */
function mergeSameQuestions(questions: Question[]): Question[] {
  const byText = new Map<string, Question>();
  for (const q of questions) {
    const seen = byText.get(q.text);
    if (seen) seen.answers.push(...q.answers);
    else byText.set(q.text, { ...q, answers: [...q.answers] });
  }
  return [...byText.values()];
}
