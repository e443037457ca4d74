// Word lists for entity heuristics: small, lower-case, checked with Set lookups.

const set = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/));

/** Common given names: a capitalised one alone, or first in a pair, names a person. */
export const GIVEN_NAMES = set(`
aaron abby abdul adam adrian ahmed aisha alan albert alex alexander alexandra alexis alfred ali alice alicia alison amanda amber amelia
amir amy ana andrea andrew andy angela anita ann anna anne annie anthony antonio arjun arthur ashley audrey ava barbara ben benjamin
beth betty bianca bob bobby brad brandon brenda brian bruce bryan camille carl carla carlos carmen carol caroline carolyn catherine
charles charlie charlotte chen chloe chris christian christina christine christopher claire clara colin craig cynthia daisy dan daniel
daniela danielle david dean deborah debra denise dennis derek diana diane diego dmitri donald donna dorothy doug douglas dylan ed eddie
edward elena eli elias elijah elizabeth ella ellen emily emma eric erik erin ethan eva evan evelyn fatima felix fernando fiona frances
francesca francis frank fred gabriel gabriela gary george georgia gerald gina giovanni giulia gloria gordon greg gregory hana hannah
harold harry heather helen henry hiroshi holly hugo ian igor ingrid irene isaac isabel isabella ivan jack jackie jacob jake james
jamie jan jane janet janice jason javier jean jeff jeffrey jennifer jenny jeremy jerry jess jessica jill jim jimmy joan joe joel john
johnny jon jonathan jorge jose joseph josh joshua joyce juan judith judy julia julian julie justin kai karen karl kate katherine kathy
katie kayla keith kelly ken kenji kenneth kevin kim kyle laura lauren leah lee leo leon liam lily linda lisa liz lori louis lucas lucia
lucy luis luke lynn maggie mandy manuel marco marcus margaret maria marie marilyn mario marta martha martin mary mason matt matteo
matthew max maya megan mei melissa mia michael michelle miguel mike mila mohammed monica nancy naomi natalie nathan neil nicholas nick
nicole nina noah nora olga oliver olivia omar oscar owen pablo pamela paul paula pedro peter philip phillip pierre priya rachel rafael
rahul raj ralph ravi raymond rebecca richard rick rita rob robert roberto robin roger ronald rosa ross ruby russell ruth ryan sam
samantha samuel sandra sara sarah scott sean sebastian sergei shannon sharon sofia sophia sophie stanley stephanie stephen steve steven
susan suzanne tanya teresa terry theresa thomas tim timothy tina todd tom tommy tony tracy tyler valentina vanessa victor victoria
vincent virginia walter wang wayne wei wendy william willow xavier yuki yusuf zach zachary zoe
abebe adebayo akira amara anders arash aylin bjorn chidi chioma dario dawit emeka emre farah freya giorgos greta hamza hassan
idris ines ioana jakub jiho jin kaito kofi kwame lars leila lena leyla lin liu malik mateo mehmet min nadia nikos noor oskar
pavel rania reza sakura samir sven tariq tomasz wojciech xin yara yasmin yiannis zainab zara zhang
`);

/** Words that are given names but also ordinary words: a person only when another cue says so. */
export const AMBIGUOUS_NAMES = set('april august bill dawn faith grace hope joy june mark may pat rose sue will art bob');

/** Honorifics before a name (the name that follows is a person's). */
export const HONORIFICS = set('mr mrs ms mx miss dr prof professor sir dame rev');

/** Months and days: capitalised but never names by themselves. */
export const CALENDAR_WORDS = set(`
january february march april may june july august september october november december
jan feb mar apr jun jul aug sep sept oct nov dec
monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
`);

/** Capitalised at a sentence start or in a heading but never part of a name. */
export const COMMON_CAPITALS = set(`
also although anyway actually after again all already always another any anyone anything around ask asked because before best but
by call called can check could dear did does done during each either even every everyone everything example find first following
for from get give good great had has have he hello her here hey hi his how however i if in instead is it its just last let like
look maybe meanwhile meeting met more most my next no not note now of ok okay on once one only or our please perhaps plus
remember reminder said she since so some sometimes still sure tell thank thanks that the their then there these they this those
though today tomorrow tonight update use using was we well what when where which while who why will with would yes yesterday you
your add adding added allow apply avoid build change choose click close create delete disable download edit enable fix get go
install join keep learn log make making move open read remove rename replace reply run save see select send set share show sign
start stop subscribe support switch take try turn view watch
`);

/** Acronyms that are ordinary words or technical terms, not organisations. */
export const ACRONYM_EXCEPTIONS = set(`
ok am pm tv faq pdf html css http https url uri api json xml yaml sql csv ceo cto cfo coo vp hr pr qa todo fyi asap eta tbd nb ps
re fw fwd aka diy lol omg btw imo imho tldr tl dr id utc gmt est edt pst pdt cet cest bst ist usb cpu gpu ram ssd hdd hd os ui ux
ai ml llm nlp gps sms mms dm rsvp ny ii iii iv vi vii viii ix xi xii xiii xiv xv xx mb gb kb tb ghz mhz usd eur gbp jpy cad aud
rip ad bc ce bce npm cli ide sdk tcp ip dns ssh ssl tls vpn wifi lan wan ceo pc mac diy mvp kpi roi rfc ascii utf png jpg jpeg gif
svg mp mp3 mp4 avi
`);

/** Places a capitalised word names on its own (countries, states, large cities); keys are lower-case. */
export const PLACES = set(`
afghanistan albania algeria andorra angola argentina armenia australia austria azerbaijan bahamas bahrain bangladesh barbados belarus
belgium belize benin bhutan bolivia bosnia botswana brazil brunei bulgaria burundi cambodia cameroon canada chad chile china colombia
congo croatia cuba cyprus czechia denmark djibouti dominica ecuador egypt eritrea estonia eswatini ethiopia fiji finland france gabon
gambia georgia germany ghana greece grenada guatemala guinea guyana haiti honduras hungary iceland india indonesia iran iraq ireland
israel italy jamaica japan jordan kazakhstan kenya kiribati kosovo kuwait kyrgyzstan laos latvia lebanon lesotho liberia libya
liechtenstein lithuania luxembourg madagascar malawi malaysia maldives mali malta mauritania mauritius mexico micronesia moldova monaco
mongolia montenegro morocco mozambique myanmar namibia nauru nepal netherlands nicaragua niger nigeria norway oman pakistan palau
palestine panama paraguay peru philippines poland portugal qatar romania russia rwanda samoa senegal serbia seychelles singapore
slovakia slovenia somalia spain sudan suriname sweden switzerland syria taiwan tajikistan tanzania thailand togo tonga tunisia turkey
turkmenistan tuvalu uganda ukraine uruguay uzbekistan vanuatu venezuela vietnam yemen zambia zimbabwe england scotland wales europe
asia africa america antarctica oceania usa uk us uae eu
alabama alaska arizona arkansas california colorado connecticut delaware florida hawaii idaho illinois indiana iowa kansas kentucky
louisiana maine maryland massachusetts michigan minnesota mississippi missouri montana nebraska nevada ohio oklahoma oregon
pennsylvania tennessee texas utah vermont virginia washington wisconsin wyoming bavaria ontario quebec catalonia tuscany
amsterdam athens atlanta auckland austin baltimore bangkok barcelona beijing berlin bogota boston brisbane brussels budapest
cairo calgary cambridge chicago copenhagen dallas delhi denver detroit dresden dubai dublin edinburgh florence frankfurt geneva
glasgow hamburg helsinki houston istanbul jakarta jerusalem johannesburg kyoto lagos leeds lima lisbon liverpool london lyon madrid
manchester manila marseille melbourne miami milan montreal moscow mumbai munich nairobi naples nashville oakland osaka oslo ottawa
oxford paris perth philadelphia phoenix portland prague rome rotterdam seattle seoul shanghai shenzhen stockholm stuttgart sydney
taipei tokyo toronto vancouver venice vienna warsaw zurich lagos kyiv kiev hanoi lahore karachi riyadh tehran baghdad havana
`);

/** Places of two or three words, lower-case. */
export const MULTI_WORD_PLACES = new Set([
  'united states', 'united kingdom', 'united arab emirates', 'hong kong', 'saudi arabia', 'south korea', 'north korea', 'new zealand',
  'sri lanka', 'costa rica', 'puerto rico', 'el salvador', 'south africa', 'czech republic', 'dominican republic', 'sierra leone',
  'burkina faso', 'ivory coast', 'new york', 'los angeles', 'san francisco', 'rio de janeiro', 'sao paulo', 'são paulo',
  'buenos aires', 'mexico city', 'tel aviv', 'kuala lumpur', 'cape town', 'new delhi', 'silicon valley', 'bay area',
]);

/** A last word that makes a capitalised sequence a place: "Baker Street", "Lake Tahoe" is handled by PLACE_FIRST. */
export const PLACE_LAST = set(`
city town village county province state street st avenue ave road rd boulevard blvd lane drive square park river lake mountain
mountains hills valley island islands bay beach coast harbour harbor airport station bridge heights district canyon falls
`);

/** A first word that makes a capitalised sequence a place: "New York", "San Diego", "Lake Como". */
export const PLACE_FIRST = set('new san santa los las saint st fort port mount lake north south east west upper lower greater costa puerto rio');

/** A last word that makes a capitalised sequence an organisation. */
export const ORG_LAST = set(`
university institute foundation college school academy lab labs laboratory laboratories hospital clinic agency association society
council committee commission group company corporation bank museum library ministry department bureau party church club partners
capital ventures holdings technologies technology systems solutions software studios studio media press network airlines airways
motors pharmaceuticals therapeutics center centre times post journal news records trust fund alliance union federation
`);

/** A first word that, followed by "of", makes an organisation: "University of Oxford", "Bank of England". */
export const ORG_FIRST_OF = set('university institute bank ministry department school college museum academy society federation church');

/** Company suffixes and their canonical spelling. */
export const COMPANY_SUFFIXES: ReadonlyMap<string, string> = new Map([
  ['inc', 'Inc'], ['incorporated', 'Inc'], ['ltd', 'Ltd'], ['limited', 'Ltd'], ['llc', 'LLC'], ['llp', 'LLP'], ['gmbh', 'GmbH'],
  ['corp', 'Corp'], ['corporation', 'Corp'], ['co', 'Co'], ['plc', 'plc'], ['ag', 'AG'], ['sa', 'SA'], ['sarl', 'SARL'], ['bv', 'BV'],
  ['nv', 'NV'], ['ab', 'AB'], ['pty', 'Pty'],
]);

/** Lower-case words allowed inside a name: "University of Oxford", "Ludwig van Beethoven". */
export const NAME_PARTICLES = ['of', 'de', 'van', 'von', 'der', 'den', 'la', 'le', 'du', 'del', 'da', 'di', 'dos', 'das', 'bin', 'al', 'y'];

/** Ordinary nouns often title-cased in product names and headings: a sequence with one is a topic, not a person. */
export const GENERIC_NOUNS = set(`
about account action analysis app apps application bar bookmarks button doc docs link links preferences tab tabs toolbar architecture article blog book browser building business card chapter chat
class client cloud code comments community conference contact content contents control course data database day design desktop
development device directory discussion document documentation download edition editor engine engineering error event events
example exchange experience feature features field figure file files form framework free function game games garden guide hall
health help history home house index information interface intelligence introduction issue issues kit language languages learning
license list login machine management manager map market marketing menu method model models module music network news notes office
online open operations overview page pages paper platform player policy post posts power practice premium pro privacy product
products program programming project projects protocol public quick reader reference release report research resources review
room rules science search section security server service services settings share sign software source space standard start
started station statement store story studio style summary support system systems table team terms test text theory tool tools
training type update user users version video view web week weekly welcome wiki window windows work world year
`);
