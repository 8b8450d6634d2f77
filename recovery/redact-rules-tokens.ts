/**
 * Token and identity rules of the redaction table (recovery/redact.ts, `REDACTION_RULES`), in order: e-mail
 * addresses, JWTs, vendor-prefixed tokens, masked key fragments, account and organisation identifiers. They run
 * after the URL rule and before the key=value and prose rules (recovery/redact-rules-pairs.ts). Pure.
 */
import { hasRun } from './redact-patterns';
import { Placeholder, type RedactionRule } from './redact-rule';
import { VENDOR_TOKENS } from './redact-vendor-tokens';

const P = Placeholder;

const VENDOR_SOURCE = `\\b(?:${VENDOR_TOKENS.map((v) => v.pattern).join('|')})`;
const VENDOR_HINT = new RegExp(VENDOR_TOKENS.map((v) => v.hint).join('|'));
/** Prefixes whose masked form (`sk-abc12…`, `sk_live_****4f2Q`) still names a vendor's key. */
const MASKED_PREFIXES =
  'sk|rk|pk|sess|whsec|gh[pousr]|github_pat|glpat|xox[abposre]|hf|npm|AKIA|ASIA|AIza|SG|key|org|proj|acct|ya29';
/** Mask runs: `***`, `•••`, `…`, `...`, `xxxx`. */
const MASK = '(?:\\*{2,}|•{2,}|…|\\.{3,}|x{4,}|X{4,})';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** The Luhn check digit is right (ISO/IEC 7812-1, Annex B): a payment card number. */
function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** The check digits of an IBAN are right (ISO 13616-1: the rearranged number mod 97 is 1). */
function ibanValid(iban: string): boolean {
  if (iban.length < 15 || iban.length > 34) return false;
  let rest = 0;
  for (const c of `${iban.slice(4)}${iban.slice(0, 4)}`) {
    const v = c >= 'A' ? c.charCodeAt(0) - 55 : c.charCodeAt(0) - 48;
    rest = v > 9 ? (rest * 100 + v) % 97 : (rest * 10 + v) % 97;
  }
  return rest === 1;
}

/** A tail of an `org-`/`proj_` id is an id when it has a digit or a capital (`org-wide` is a word). */
const idTail = (m: string) => (/[0-9A-Z]/.test(m.slice(4)) ? P.ACCOUNT : m);

/*
 * Frozen here (shallow), as `REDACTION_RULES` is: Temporal deep-freezes the exports of preloaded workflow modules
 * but stops at an object that is already frozen (@temporalio/worker, reusable-vm `deepFreeze`), so the rules'
 * RegExps stay writable — `String.prototype.replace` with a global pattern writes its `lastIndex` (ECMA-262,
 * RegExp.prototype[@@replace]).
 */
export const TOKEN_RULES: readonly RedactionRule[] = Object.freeze([
  // E-mail addresses, whole (RFC 5322 §3.4.1 dot-atom local parts; a domain of DNS labels with a letter TLD, or a
  // domain an earlier pass or the sender already replaced). `user:pass@` is the userinfo rule's.
  {
    name: 'e-mail address',
    pattern:
      /(?<![\w.%+:-])[A-Za-z0-9._%+-]{1,64}@(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.){1,8}[A-Za-z]{2,24}(?![\w-])|\[(?:host|url|ip|redacted)\]|localhost\b)/g,
    replace: P.EMAIL,
    mayMatch: (t) => t.includes('@'),
  },
  {
    name: 'jwt',
    pattern: /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g,
    replace: P.REDACTED,
    mayMatch: (t) => t.includes('eyJ'),
  },
  // One row per vendor in recovery/redact-vendor-tokens.ts, each with its source.
  {
    name: 'vendor-prefixed token',
    pattern: new RegExp(VENDOR_SOURCE, 'g'),
    replace: P.REDACTED,
    // Every row's shortest match has 13 token characters in a row (`xoxb-` and 8); then its hint.
    mayMatch: (t) => hasRun(t, 13) && VENDOR_HINT.test(t),
  },
  // Masked fragments: a vendor prefix then a mask (`sk-abc12…`, `sk-proj-Ab12****wxYZ`, `sk_live_****4f2Q`).
  {
    name: 'masked vendor key',
    pattern: new RegExp(`\\b(?:${MASKED_PREFIXES})[-_.][A-Za-z0-9_.-]{0,64}?${MASK}[A-Za-z0-9_-]{0,16}`, 'g'),
    replace: P.REDACTED,
    mayMatch: (t) => /\*\*|••|…|\.\.\.|xxxx/i.test(t),
  },
  // Any masked key or card: `abcd****wxyz`, `****1234`, `•••• 4242`, `XXXX-XXXX-XXXX-1234`, `xxxx1234`.
  {
    name: 'masked fragment',
    pattern:
      /(?<![\w*•])(?:[A-Za-z0-9][A-Za-z0-9_-]{1,40}(?:\*{3,}|•{3,})[A-Za-z0-9_-]{0,16}|(?:\*{3,}|•{3,})(?:[A-Za-z0-9]{2,8}|[ -]\d{2,8})(?![\w*•])|(?:[xX*•]{4}[ -]){1,3}[xX*•]{0,4}\d{2,4}\b|[xX]{4,}[ -]?\d{2,8}\b)/g,
    replace: P.REDACTED,
    mayMatch: (t) => /\*\*\*|•••|xxxx/i.test(t),
  },
  // Account and organisation identifiers: OpenAI organisation and project ids (`org-…`, `proj_…`, the
  // `OpenAI-Organization` header's value), Anthropic workspace ids (`wrkspc_…`, Anthropic Admin API, "Workspaces"),
  // Stripe connected accounts (`acct_…`), Twilio account SIDs (`AC` + 32 hex).
  {
    name: 'account id',
    pattern:
      /\b(?:org-[A-Za-z0-9]{12,}|proj_[A-Za-z0-9]{12,}|wrkspc_[A-Za-z0-9]{12,}|acct_[A-Za-z0-9]{8,}|AC[0-9a-f]{32})\b/g,
    replace: (m: string) => (m.startsWith('org-') || m.startsWith('proj_') ? idTail(m) : P.ACCOUNT),
    mayMatch: (t) => /org-|proj_|wrkspc_|acct_|AC[0-9a-f]/.test(t),
  },
  // An AWS ARN with an account number (AWS General Reference, "Amazon Resource Names"): the whole ARN, since the
  // resource part names users and roles.
  {
    name: 'aws arn with an account',
    pattern: /\barn:aws[a-z-]{0,16}:[a-z0-9-]{0,64}:[a-z0-9-]{0,32}:\d{12}:[^\s"'<>,;()]{0,512}/g,
    replace: P.ACCOUNT,
    mayMatch: (t) => t.includes('arn:aws'),
  },
  // Payment card numbers (PCI DSS: the primary account number): 13–19 digits, whole or in groups of 4 (Amex 4-6-5),
  // starting 3–6 (ISO/IEC 7812-1 major industry identifiers of cards) and passing the Luhn check. Standing alone: digits
  // inside a longer letters-and-digits run are part of a token, which the token rule redacts whole (redacting only
  // its digits would leave the rest of the token in the text).
  {
    name: 'payment card number',
    pattern:
      /(?<![\dA-Za-z_.,-])(?:[3-6]\d{12,18}|[3-6]\d{3}([ -])\d{4}\1\d{4}\1\d{1,7}|3[47]\d{2}([ -])\d{6}\2\d{5})(?![\dA-Za-z_])/g,
    replace: (m: string) => (luhnValid(m.replace(/[ -]/g, '')) ? P.REDACTED : m),
    mayMatch: (t) => /[3-6]\d{3}/.test(t),
  },
  // Bank account numbers as IBANs (ISO 13616-1), checked by their mod-97 digits.
  {
    name: 'iban',
    pattern: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g,
    replace: (m: string) => (ibanValid(m.replace(/ /g, '')) ? P.ACCOUNT : m),
    mayMatch: (t) => /[A-Z]{2}\d{2}/.test(t),
  },
  // A 12-digit account number (AWS, a Google Cloud project number) or a UUID (Azure tenant and subscription ids, an
  // Anthropic organisation in a 429: "your organization (<uuid>)") after a word that says so.
  {
    name: 'account number after its noun',
    pattern: new RegExp(
      `\\b(accounts?|acct|tenant|subscription|directory|organi[sz]ation|org|project(?=[ _-]?(?:number|no\\b)))((?:[ _-]?(?:id|number|no\\.?))?[ \\t]*[:=#(]?[ \\t]*["']?)(\\d{4}-?\\d{4}-?\\d{4}(?![\\d-])|${UUID}\\b)`,
      'gi',
    ),
    replace: (_m: string, noun: string, gap: string) => `${noun}${gap}${P.ACCOUNT}`,
    mayMatch: (t) => /acc|tenant|subscription|directory|org|project/i.test(t),
  },
]);
