/**
 * Words of the 'credential introduced in prose' rule (recovery/redact-rules-pairs.ts): the nouns that name a
 * secret, the words that introduce its value, and the words after them that describe the secret instead of being
 * it ("the password is wrong"). English, German, French, Spanish, Portuguese, Italian, Dutch, Russian, Chinese,
 * Japanese and Korean. Texts reach the rule in NFKC (recovery/redact-normalize.ts), so `：` is `:` and `é` is one
 * character. Pure: no imports.
 */

/**
 * Nouns whose value is a list or a phrase of several words: after a strong introducer the value runs to the end of
 * the clause (`Backup codes: 48213 90551`, `the passphrase is correct horse battery staple`).
 */
const PHRASE_NOUN_LIST = [
  'pass[ -]?phrases?',
  '(?:seed|recovery|secret|mnemonic) (?:phrase|words)',
  'mnemonic',
  '(?:recovery|backup|one[ -]time|verification|2fa|mfa) codes',
];

/** Nouns whose value is one word or one quoted string. */
const WORD_NOUNS = [
  // English (OWASP Logging Cheat Sheet: passwords, keys, tokens, session ids; RFC 6749 client secrets and tokens).
  'pass(?:word|wd|code|phrase)s?',
  'pwd',
  'pin(?:[ -]?code)?',
  'otp',
  'one[ -]time (?:pass)?code',
  '(?:auth(?:orization)?|verification|security|login|sign[ -]?in|access|mfa|2fa|sms|reset|recovery|backup|device) code',
  'client[ _-]?secret',
  'secret(?:[ _-]?key)?',
  '(?:access|refresh|auth|api|bearer|session|id|personal access) tokens?',
  'token',
  'api[ _-]?key',
  '(?:access|secret|private|signing|license|licence|account|ssh|encryption|master|webhook) key',
  'credentials?',
  'x-api-key',
  'x-auth-token',
  'authorization',
  'code[ _-]verifier',
  'cvv|cvc',
  // German, French, Spanish, Portuguese, Italian, Dutch.
  'passwort',
  'kennwort',
  'zugangscode',
  'api-schl(?:ü|ue)ssel',
  'geheimer schl(?:ü|ue)ssel',
  'mot de passe',
  'mdp',
  'cl[ée] (?:api|secr[èe]te|priv[ée]e)',
  'jeton',
  'contrase[ñn]a',
  'clave(?: api| secreta| privada)?',
  'senha',
  'chave (?:api|secreta|privada)',
  'chiave (?:api|segreta|privata)',
  'wachtwoord',
  // Nordic, Polish, Czech, Hungarian, Romanian, Turkish, Indonesian, Vietnamese.
  'l[öo]senord',
  'adgangskode',
  'passord',
  'salasana',
  'has[łl]o',
  'heslo',
  'jelsz[óo]',
  'parol[ăa]',
  '[şs]ifre',
  'kata sandi',
  'm[ậa]t kh[ẩa]u',
  'c[óo]digo (?:de verificaci[óo]n|de verifica[çc][ãa]o|secreto)',
  'codice (?:di verifica|segreto)',
  // Russian.
  'пароль',
  'парольная фраза',
  'токен',
  'секретный ключ',
  'код подтверждения',
  // Chinese, Japanese, Korean (no word boundary before them).
  '密码',
  '密碼',
  '口令',
  '密钥',
  '密鑰',
  '秘钥',
  '令牌',
  '验证码',
  '驗證碼',
  'パスワード',
  '暗証番号',
  '秘密鍵',
  'トークン',
  '認証コード',
  '비밀번호',
  '암호',
];

/** The phrase nouns, as one alternation (the 'secret phrase in prose' rule). */
export const PHRASE_NOUNS = PHRASE_NOUN_LIST.join('|');
/** Every noun, as one alternation (the 'credential in prose' rule; phrase nouns after a weak introducer). */
export const SECRET_NOUNS = [...WORD_NOUNS, ...PHRASE_NOUN_LIST].join('|');

/**
 * True when `text` has a part of a Latin-script noun, or a character outside ASCII (every Cyrillic and CJK noun has
 * one): the precheck of the 'credential in prose' rule.
 */
export function mayNameSecret(text: string): boolean {
  return NON_ASCII.test(text) || LATIN_NOUN_HINT.test(text);
}
const NON_ASCII = /[^\x00-\x7f]/;
const LATIN_NOUN_HINT =
  /pass|pwd|pin|otp|cod|secret|token|key|credential|authori|cvv|cvc|kennwort|schl|mdp|cl[ée]|jeton|contrase|clave|senha|chave|chiave|wachtwoord|phrase|mnemonic|senord|adgangskode|passord|salasana|has[łl]o|heslo|jelsz|parol|ifre|sandi|kh/i;

/**
 * A strong introducer: after it, the next word is the value unless it describes the secret (`STATE_WORDS`).
 * A colon or an equals sign; `is`, `was`, `are`, `equals`, `set to`, `changed to` and the like (optionally followed
 * by a colon); `ist`, `lautet`, `est`, `es`, `é`, `è`, `это`; a dash after a Russian noun; `是`, `为`, `は`, `는`,
 * `은`. A `for …`/`of …` of up to three words may stand between the noun and the introducer
 * ("the password for user admin is …").
 */
export const STRONG_INTRO =
  '(?:[ \\t]+(?:for|of|für|von|de|pour|para|per|di|для)(?:[ \\t]+[^\\s:=]{1,40}){1,3}?)?' +
  '(?:[ \\t]*[:=][ \\t]*' +
  '|[ \\t]+(?:(?:is|was|are|were|will be|has been|have been|equals|becomes|reads)(?:[ \\t]+(?:now|still|set to|changed to|reset to))?|(?:set|changed|reset) to|ist|lautet|lauten|war|wurde|est|était|sera|es|era|será|é|è|sarà|är|er|jest|je|este|adalah|là|это|был|будет)(?:[ \\t]*[:=])?[ \\t]+' +
  '|[ \\t]*[—–][ \\t]*' +
  '|[ \\t]*(?:是|为|為|は|는|은)[ \\t]*)';

/**
 * Words that describe a secret after a strong introducer, in lower case: "the password is wrong", "api key:
 * missing", "das Passwort ist falsch", "le mot de passe est incorrect". The value is kept when it is one of them.
 */
export const STATE_WORDS: ReadonlySet<string> = new Set(
  // English
  (
    'wrong incorrect incorrectly invalid required missing expired expiring empty too not a an the being needed ' +
    'mandatory weak strong reset set changed blank null none nil unknown revoked valid ok accepted rejected locked ' +
    'disabled enabled compromised present absent used correct hidden redacted masked stored encrypted hashed ' +
    'optional same different unchanged due about only still now also already no never longer shorter must should ' +
    'cannot can may will in of for to at on by with and or but if that this it its your my their our his her ' +
    'unavailable available provided supplied given sent bad good unsupported supported deprecated malformed ' +
    'undefined false true yes n/a na case-sensitive insecure secure new old current temporary expires ' +
    'dead alive gone stale broken lost inactive active pending unset blocked suspended frozen done over fine ready ' +
    'busy full down up off out back here there unusable different single shared personal ' +
    // German
    'falsch ungültig erforderlich abgelaufen leer nicht zu kurz lang gesperrt korrekt richtig fehlt der die das ein eine ' +
    // French
    'invalide requis obligatoire expiré vide pas trop court le la un une erroné faux ' +
    // Spanish, Portuguese, Italian, Dutch
    'incorrecta incorrecto inválida inválido obligatoria requerida caducada vacía demasiado el errónea ' +
    'incorreta obrigatória expirada vazia errada muito sbagliata errata non valida obbligatoria scaduta vuota troppo ' +
    'onjuist ongeldig verplicht verlopen leeg fout ' +
    // Russian
    'неверный неправильный недействителен обязателен истёк пустой не'
  ).split(' '),
);

/**
 * An English word that describes rather than names (`revoked`, `expiring`, `unusable`, `insufficient`,
 * `incorrectly`): after `is`/`was`, a lower-case word ending like this is kept. After `:` or `=` only
 * `STATE_WORDS` are.
 */
export const DESCRIPTIVE_ENDING = /^[a-z]{3,}(?:ed|ing|able|ible|ive|ful|less|ous|ly|ent|ant|al)$/;
