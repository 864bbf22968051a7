/**
 * The prompt policy's own word lists (docs/prompt-policy.md), in English and the other 23 official languages of the EU.
 * No maintained package lists these categories: the profanity lists on npm (obscenity's, LDNOOBW's "naughty-words",
 * @2toad/profanity) hold swearing and sexual slang, not the words that make a person a minor, nor "undress her", nor
 * the languages' words for rape; so this list is ours, reviewed by hand. Terms are written as people write them (with
 * accents): the policy folds them exactly as it folds a prompt. A term of several words matches those words in a row;
 * a single word of four letters or more also matches with up to three more letters at its end (nackt, nackte,
 * nacktes), so inflections need not be listed.
 *
 * Reviewed against English collisions: words that are also ordinary English or common names were left out or only
 * kept inside a phrase (Danish/Swedish "barn", Dutch/German "kind", Estonian "laps", Spanish "niña"/"nina", Portuguese
 * "pelada" (a football game), Bulgarian/Romanian "гол"/"gol" (a goal), Italian "bimbo", Croatian and Slovene "gola" (Italian for a throat)), so an innocent prompt in
 * English does not turn into a minor or a nude by accident; the false-positive corpus in test/domain pins this.
 */

/** What a term says: a part of a category (sexual or nude; a minor), or a category on its own. */
export type TermTag = 'sexual' | 'minor' | 'sexual-minors' | 'sexual-violence' | 'non-consensual-imagery';

interface LanguageTerms {
  /** Words that make a person a minor. */
  minor: string[];
  /** Sexual or nudity words, and verbs of undressing (refused with a minor, or on a given picture). */
  sexual: string[];
  /** Sexual content with minors named on its own. */
  sexualMinors: string[];
  /** Rape and sexual assault. */
  violence: string[];
  /** Undressing a (real) person by request: refused on their own. */
  nonConsensual: string[];
}

export const POLICY_TERMS: Record<string, LanguageTerms> = {
  en: {
    minor: ['child', 'children', 'kid', 'kids', 'kiddie', 'kiddo', 'minor', 'minors', 'underage', 'under age', 'teen', 'teens', 'teenage', 'teenager', 'preteen', 'tween', 'toddler', 'infant', 'newborn', 'schoolgirl', 'schoolboy', 'schoolkid', 'little girl', 'little boy', 'young girl', 'young boy', 'juvenile', 'prepubescent', 'pubescent', 'elementary school', 'middle school', 'grade schooler', 'kindergartner', 'kindergartener', 'preschooler', 'first grader', 'second grader', 'third grader', 'fourth grader', 'fifth grader', 'sixth grader', 'seventh grader', 'eighth grader', 'under 18', 'youngster'],
    sexual: ['nude', 'nudes', 'nudity', 'naked', 'nsfw', 'erotic', 'erotica', 'sexy', 'sexual', 'sexualized', 'sexualised', 'topless', 'bottomless', 'lingerie', 'undressed', 'undressing', 'undress', 'unclothed', 'without clothes', 'without clothing', 'no clothes', 'in the nude', 'nipple', 'nipples', 'genitals', 'genital', 'seductive', 'sensual', 'xxx', 'stripper', 'striptease', 'lewd', 'fetish', 'panties', 'intercourse', 'horny', 'aroused', 'spread legs', 'take off clothes', 'porn', 'porno', 'pornographic', 'sex'],
    sexualMinors: ['csam', 'child porn', 'childporn', 'jailbait', 'loli', 'lolicon', 'shota', 'shotacon', 'pedo', 'pedophile', 'paedophile', 'pedophilia', 'paedophilia', 'cp porn'],
    violence: ['rape', 'raped', 'raping', 'rapist', 'sexual assault', 'sexually assaulted', 'molest', 'molested', 'molesting', 'non consensual', 'nonconsensual', 'without consent', 'drugged and', 'zoophilia', 'necrophilia', 'bestiality', 'incest'],
    nonConsensual: ['nudify', 'nudified', 'nudifier', 'deepnude', 'deep nude', 'undress her', 'undress him', 'undress them', 'undress this', 'undress the', 'remove her clothes', 'remove his clothes', 'remove their clothes', 'remove the clothes', 'remove clothes', 'remove clothing', 'remove her clothing', 'remove her dress', 'remove her bra', 'remove her bikini', 'remove her top', 'remove her shirt', 'take off her clothes', 'take off his clothes', 'take off her dress', 'take off her top', 'take off her bra', 'take off her shirt', 'take off her bikini', 'take off her underwear', 'take her clothes off', 'take his clothes off', 'strip her', 'strip him', 'make her naked', 'make him naked', 'make her nude', 'make him nude', 'make them naked', 'x ray her clothes', 'see through her clothes', 'revenge porn'],
  },
  bg: {
    minor: ['дете', 'деца', 'момиченце', 'момченце', 'малолетна', 'малолетен', 'малолетно', 'непълнолетна', 'непълнолетен', 'тийнейджърка', 'тийнейджър', 'ученичка'],
    sexual: ['гола', 'голо', 'голи', 'голо тяло', 'секси', 'еротичен', 'еротична', 'еротично', 'порно', 'разсъблечена', 'разсъблечен', 'съблечена'],
    sexualMinors: ['детско порно', 'педофил', 'педофилия'],
    violence: ['изнасилване', 'изнасилена', 'изнасилен'],
    nonConsensual: ['съблечи я', 'съблечи го', 'разсъблечи я', 'свали дрехите ѝ', 'свали ѝ дрехите'],
  },
  hr: {
    minor: ['dijete', 'djeca', 'djevojčica', 'dječak', 'maloljetna', 'maloljetnik', 'maloljetnica', 'tinejdžerica', 'tinejdžer', 'učenica'],
    sexual: ['golo', 'goli', 'gole', 'seksi', 'erotski', 'erotska', 'porno', 'razodjevena', 'svučena'],
    sexualMinors: ['dječja pornografija', 'pedofil', 'pedofilija'],
    violence: ['silovanje', 'silovana', 'silovan'],
    nonConsensual: ['skini je', 'svuci je', 'skini joj odjeću', 'skini mu odjeću'],
  },
  cs: {
    minor: ['dítě', 'děti', 'holčička', 'chlapeček', 'nezletilá', 'nezletilý', 'nezletilé', 'náctiletá', 'náctiletý', 'školačka', 'puberťačka'],
    sexual: ['nahá', 'nahý', 'nahé', 'nazí', 'nahota', 'erotický', 'erotická', 'porno', 'svlečená', 'svlečený'],
    sexualMinors: ['dětská pornografie', 'dětské porno', 'pedofil', 'pedofilie'],
    violence: ['znásilnění', 'znásilněná', 'znásilněný'],
    nonConsensual: ['svlékni ji', 'svleč ji', 'svlékni ho', 'sundej jí oblečení', 'sundej jí šaty'],
  },
  da: {
    minor: ['børn', 'børnene', 'lille pige', 'lille dreng', 'mindreårig', 'mindreårige', 'skolepige', 'teenagepige', 'pigebarn'],
    sexual: ['nøgen', 'nøgne', 'sexet', 'erotisk', 'porno', 'afklædt'],
    sexualMinors: ['børneporno', 'pædofil', 'pædofili'],
    violence: ['voldtægt', 'voldtaget', 'voldtager'],
    nonConsensual: ['klæd hende af', 'klæd ham af', 'tag hendes tøj af', 'fjern hendes tøj'],
  },
  nl: {
    minor: ['kindje', 'kinderen', 'meisje', 'meisjes', 'jongetje', 'minderjarig', 'minderjarige', 'tiener', 'tienermeisje', 'schoolmeisje'],
    sexual: ['naakt', 'naakte', 'bloot', 'blote', 'erotisch', 'erotische', 'porno', 'uitgekleed', 'uitkleden'],
    sexualMinors: ['kinderporno', 'pedofiel', 'pedofilie'],
    violence: ['verkrachting', 'verkracht', 'verkrachte'],
    nonConsensual: ['kleed haar uit', 'kleed hem uit', 'trek haar kleren uit', 'trek zijn kleren uit'],
  },
  et: {
    minor: ['lapsed', 'väike laps', 'väike tüdruk', 'väike poiss', 'tüdrukuke', 'alaealine', 'alaealised', 'teismeline', 'koolitüdruk'],
    sexual: ['alasti', 'paljas', 'seksikas', 'erootiline', 'porno', 'lahtiriietatud'],
    sexualMinors: ['lapsporno', 'lapspornograafia', 'pedofiil'],
    violence: ['vägistamine', 'vägistatud'],
    nonConsensual: ['võta ta riidest lahti', 'riietu ta lahti', 'võta tal riided seljast'],
  },
  fi: {
    minor: ['lapsi', 'lapset', 'tyttö', 'tyttönen', 'pikkutyttö', 'pikkupoika', 'alaikäinen', 'alaikäiset', 'teini', 'teinityttö', 'koulutyttö'],
    sexual: ['alaston', 'alasti', 'seksikäs', 'eroottinen', 'porno', 'riisuttu', 'riisuutunut'],
    sexualMinors: ['lapsiporno', 'pedofiili', 'pedofilia'],
    violence: ['raiskaus', 'raiskattu', 'raiskata'],
    nonConsensual: ['riisu hänet', 'riisu hänen vaatteensa', 'poista hänen vaatteensa'],
  },
  fr: {
    minor: ['enfant', 'enfants', 'fillette', 'petite fille', 'petit garçon', 'mineure', 'mineures', 'adolescente', 'écolière', 'collégienne', 'gamine'],
    sexual: ['nue', 'nues', 'toute nue', 'érotique', 'porno', 'pornographique', 'déshabillée', 'déshabillé', 'seins nus'],
    sexualMinors: ['pédopornographie', 'pédophile', 'pédophilie', 'porno infantile'],
    violence: ['viol', 'violée', 'violer', 'agression sexuelle'],
    nonConsensual: ['déshabille la', 'déshabille le', 'enlève ses vêtements', 'retire ses vêtements', 'enlève lui ses vêtements'],
  },
  de: {
    minor: ['kindes', 'kleinkind', 'mädchen', 'kleines mädchen', 'kleiner junge', 'minderjährig', 'minderjährige', 'schulmädchen', 'jugendliche', 'teenagerin'],
    sexual: ['nackt', 'nackte', 'nacktes', 'nackten', 'erotisch', 'erotische', 'porno', 'entkleidet', 'oben ohne', 'ausgezogen'],
    sexualMinors: ['kinderporno', 'kinderpornografie', 'kinderpornographie', 'pädophil', 'pädophiler', 'pädophilie'],
    violence: ['vergewaltigung', 'vergewaltigt', 'vergewaltigte', 'sexueller missbrauch'],
    nonConsensual: ['zieh sie aus', 'zieh ihn aus', 'zieh ihr die kleider aus', 'entkleide sie', 'entferne ihre kleidung'],
  },
  el: {
    minor: ['παιδί', 'παιδιά', 'κοριτσάκι', 'αγοράκι', 'ανήλικη', 'ανήλικος', 'ανήλικο', 'έφηβη', 'έφηβος', 'μαθήτρια'],
    sexual: ['γυμνή', 'γυμνό', 'γυμνός', 'γυμνά', 'σέξι', 'ερωτικό', 'ερωτική', 'πορνό', 'ξεντυμένη'],
    sexualMinors: ['παιδική πορνογραφία', 'παιδεραστής', 'παιδόφιλος'],
    violence: ['βιασμός', 'βιασμένη', 'βιασμένος'],
    nonConsensual: ['γδύσε την', 'γδύσε τον', 'βγάλε τα ρούχα της'],
  },
  hu: {
    minor: ['gyerek', 'gyermek', 'kislány', 'kisfiú', 'kiskorú', 'tinédzser', 'iskoláslány'],
    sexual: ['meztelen', 'pucér', 'szexi', 'erotikus', 'pornó', 'levetkőzött', 'levetkőztetett'],
    sexualMinors: ['gyermekpornó', 'gyerekpornó', 'pedofil'],
    violence: ['nemi erőszak', 'megerőszakolt', 'megerőszakolják'],
    nonConsensual: ['vetkőztesd le', 'vedd le a ruháját', 'vedd le róla a ruhát'],
  },
  ga: {
    minor: ['páiste', 'páistí', 'leanbh', 'cailín beag', 'buachaill beag', 'mionaoiseach', 'déagóir'],
    sexual: ['nocht', 'nochta', 'gnéasach', 'graosta', 'pornagrafaíocht'],
    sexualMinors: ['pornagrafaíocht leanaí', 'péidifileach'],
    violence: ['éigniú', 'éignithe'],
    nonConsensual: ['bain a cuid éadaigh di', 'bain a chuid éadaigh de'],
  },
  it: {
    minor: ['bambina', 'bambino', 'bambini', 'bambine', 'ragazzina', 'ragazzino', 'minorenne', 'minorenni', 'adolescente', 'scolaretta'],
    sexual: ['nuda', 'nudo', 'nudi', 'erotica', 'erotico', 'porno', 'svestita', 'spogliata', 'seminuda'],
    sexualMinors: ['pedopornografia', 'pedofilo', 'pedofilia', 'pornografia infantile'],
    violence: ['stupro', 'stuprata', 'violentata', 'violenza sessuale'],
    nonConsensual: ['spogliala', 'spoglialo', 'svestila', 'togli i vestiti', 'toglile i vestiti'],
  },
  lv: {
    minor: ['bērns', 'bērni', 'meitene', 'mazā meitene', 'zēns', 'nepilngadīga', 'nepilngadīgs', 'pusaudze', 'pusaudzis', 'skolniece'],
    sexual: ['kaila', 'kails', 'kailā', 'seksīga', 'erotisks', 'erotiska', 'porno', 'izģērbta'],
    sexualMinors: ['bērnu pornogrāfija', 'pedofils'],
    violence: ['izvarošana', 'izvarota'],
    nonConsensual: ['izģērb viņu', 'novelc viņas drēbes', 'novelc viņai drēbes'],
  },
  lt: {
    minor: ['vaikas', 'vaikai', 'mergaitė', 'berniukas', 'nepilnametė', 'nepilnametis', 'paauglė', 'paauglys', 'moksleivė'],
    sexual: ['nuoga', 'nuogas', 'nuogi', 'seksuali', 'erotinis', 'erotinė', 'porno', 'nurengta'],
    sexualMinors: ['vaikų pornografija', 'pedofilas'],
    violence: ['išžaginimas', 'išžaginta', 'išprievartauta'],
    nonConsensual: ['nurenk ją', 'nurenk jį', 'nuvilk jos drabužius'],
  },
  mt: {
    minor: ['tifel', 'tifla', 'tfal', 'minorenni', 'adolexxent', 'adolexxenti'],
    sexual: ['għarwien', 'għarwiena', 'sesswali', 'erotiku', 'erotika', 'porno'],
    sexualMinors: ['pornografija tat tfal', 'pedofilu'],
    violence: ['stupru', 'stuprata'],
    nonConsensual: ['neħħilha l ħwejjeġ', 'neħħilu l ħwejjeġ'],
  },
  pl: {
    minor: ['dziecko', 'dzieci', 'dziewczynka', 'chłopiec', 'chłopczyk', 'nieletnia', 'nieletni', 'nastolatka', 'nastolatek', 'uczennica'],
    sexual: ['naga', 'nagi', 'nagie', 'nagą', 'seksowna', 'seksowny', 'erotyczny', 'erotyczna', 'porno', 'rozebrana'],
    sexualMinors: ['pornografia dziecięca', 'pedofil', 'pedofilia'],
    violence: ['gwałt', 'zgwałcona', 'zgwałcony'],
    nonConsensual: ['rozbierz ją', 'rozbierz go', 'zdejmij jej ubranie', 'zdejmij z niej ubranie'],
  },
  pt: {
    minor: ['criança', 'crianças', 'menina', 'meninas', 'menino', 'meninos', 'garotinha', 'menor de idade', 'adolescente', 'colegial'],
    sexual: ['nua', 'nuas', 'erótica', 'erótico', 'pornô', 'porno', 'despida', 'despido'],
    sexualMinors: ['pornografia infantil', 'pedófilo', 'pedofilia'],
    violence: ['estupro', 'estuprada', 'violação sexual'],
    nonConsensual: ['tire a roupa dela', 'tira a roupa dela', 'despe a', 'remova a roupa dela'],
  },
  ro: {
    minor: ['copil', 'copii', 'copilă', 'fetiță', 'băiețel', 'minoră', 'minori', 'adolescentă', 'elevă'],
    sexual: ['goală', 'goale', 'dezbrăcată', 'dezbrăcat', 'erotic', 'erotică', 'porno'],
    sexualMinors: ['pornografie infantilă', 'pedofil', 'pedofilie'],
    violence: ['viol', 'violată', 'violat'],
    nonConsensual: ['dezbrac o', 'dezbracă o', 'scoate i hainele', 'scoate-i hainele'],
  },
  sk: {
    minor: ['dieťa', 'deti', 'dievčatko', 'chlapček', 'maloletá', 'maloletý', 'neplnoletá', 'tínedžerka', 'školáčka'],
    sexual: ['nahá', 'nahý', 'nahé', 'sexi', 'erotický', 'erotická', 'porno', 'vyzlečená'],
    sexualMinors: ['detská pornografia', 'detské porno', 'pedofil'],
    violence: ['znásilnenie', 'znásilnená'],
    nonConsensual: ['vyzleč ju', 'vyzleč ho', 'vyzleč ju donaha', 'zlož z nej oblečenie'],
  },
  sl: {
    minor: ['otrok', 'otroci', 'deklica', 'deček', 'mladoletna', 'mladoletnik', 'mladoletnica', 'najstnica', 'najstnik', 'učenka'],
    sexual: ['golo', 'goli', 'naga', 'nago', 'seksi', 'erotičen', 'erotična', 'porno', 'slečena'],
    sexualMinors: ['otroška pornografija', 'pedofil'],
    violence: ['posilstvo', 'posiljena'],
    nonConsensual: ['sleci jo', 'sleci ga', 'slecite jo'],
  },
  es: {
    minor: ['niñas', 'niños', 'niño', 'una niña', 'niña pequeña', 'menor de edad', 'menores de edad', 'adolescente', 'colegiala', 'chiquilla'],
    sexual: ['desnuda', 'desnudo', 'desnudas', 'desnudos', 'erótica', 'erótico', 'porno', 'desvestida', 'en pelotas'],
    sexualMinors: ['pornografía infantil', 'pedófilo', 'pedofilia'],
    violence: ['violación', 'violada', 'violar', 'agresión sexual'],
    nonConsensual: ['desnúdala', 'desnúdalo', 'desvístela', 'quítale la ropa'],
  },
  sv: {
    minor: ['barnet', 'barnen', 'liten flicka', 'liten pojke', 'flickebarn', 'minderårig', 'minderåriga', 'tonåring', 'tonårsflicka', 'skolflicka'],
    sexual: ['naken', 'nakna', 'sexig', 'erotisk', 'porr', 'avklädd'],
    sexualMinors: ['barnporr', 'barnpornografi', 'pedofil'],
    violence: ['våldtäkt', 'våldtagen', 'våldtas'],
    nonConsensual: ['klä av henne', 'klä av honom', 'ta av hennes kläder'],
  },
};

/**
 * Terms that mean something else once their accents are folded away, so read only as written: Spanish "niña" folded
 * is the name Nina.
 */
export const ACCENTED_TERMS: ReadonlyArray<[string, TermTag]> = [['niña', 'minor']];

/** English words a no-space prompt is read with ("undressherphoto"): they carry no tag of their own. */
export const FILLERS = ['a', 'an', 'the', 'of', 'with', 'in', 'on', 'and', 'her', 'his', 'him', 'them', 'this', 'that', 'my', 'photo', 'picture', 'image', 'pic', 'girl', 'boy', 'woman', 'man', 'year', 'years', 'old', 'yo', 'being', 'very', 'little', 'young', 'pose', 'style', 'art', 'artwork'];

/** Numbers under 18 as English words (ages: "a twelve-year-old"). */
export const AGE_WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen'];
/** What follows an age in the EU's languages ("12 years", "12 ans", "12 Jahre", "12 años", "12 lat", "12 éves", "12 ετών"...), folded. */
export const AGE_UNITS = ['year', 'years', 'yr', 'yrs', 'yo', 'y o', 'ans', 'an', 'jahre', 'jahrig', 'jahrige', 'jahriges', 'jahrigen', 'jaar', 'jarig', 'jarige', 'anni', 'anno', 'anos', 'ano', 'ani', 'lat', 'let', 'leta', 'ar', 'arig', 'arige', 'vuotias', 'vuotiaan', 'aastane', 'eves', 'ετων', 'χρονων', 'χρονο', 'χρονη', 'години', 'годишна', 'годишен', 'godina', 'godine', 'gadus', 'gadi', 'metu', 'sena', 'snin', 'bliana', 'rocna', 'rocny', 'rokov', 'rocne', 'letna', 'letni', 'letnia', 'letni', 'letnie'];
