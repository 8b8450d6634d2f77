/**
 * A settled composed message skips `buildFailure`'s final redaction pass (recovery/classify/public-parts.ts), so
 * it must already be what that pass would give: for every HTTP status, effect and deduplication, every tool name
 * and every body, `finishPublicMessage(m) === m` and `redact(m) === m` for the message `classify` returns. The
 * generators join pieces the rules look for (secret keys, schemes, quotes, separators, hosts, token prefixes,
 * hidden characters) so that matches across a part's edge are tried, not left to chance.
 */
import fc from 'fast-check';
import { classify } from '../../recovery/classify';
import { finishPublicMessage } from '../../recovery/classify/text';
import { redact } from '../../recovery/redact';
import { ctxOf } from './classify-helpers';

const PIECES = [
  'password',
  'token',
  'secret',
  'api_key',
  'auth',
  'sig',
  'key',
  'Bearer ',
  'Basic ',
  'with ',
  'is ',
  'at ',
  'Server ',
  'host ',
  'connect to ',
  '(',
  ')',
  '"',
  "'",
  '`',
  '\\',
  ':',
  ': ',
  '=',
  '/',
  '//',
  '://',
  'https',
  '.',
  '.com',
  '.internal',
  'localhost',
  'sk-',
  'sk_live_',
  'AKIA',
  'ghp_',
  'xoxb-',
  'eyJ',
  '@',
  '[',
  ']',
  '::',
  '1.2',
  '.3.4',
  ':8080',
  '-----BEGIN ',
  '%2F',
  '%41',
  '\u200b',
  '\u00ad',
  '\n',
  '  ',
  '\t',
  '\u202e',
  'ｓｋ-',
  'abcdef0123456789ABCDEFabcdef0123',
  '4eC39HqLyjWDarjtT1zdp7dc',
  'hunter2',
  'x',
  'y z',
  '_',
  '-',
  '…',
];
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PIECES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z_]{1,12}$/) },
);
const text = (maxPieces: number) => fc.array(piece, { maxLength: maxPieces }).map((p) => p.join(''));
const toolName = fc.oneof(
  fc.constantFrom('check_inventory', 'create_refund', 'send_email', 'get_session', 'password', 'localhost'),
  text(6).filter((t) => t.length > 0),
  fc.string({ minLength: 1, maxLength: 400 }),
);
const body = fc.oneof(
  fc.record({ error: fc.record({ code: fc.option(text(3), { nil: undefined }), message: text(12) }) }),
  fc.record({ code: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_.:-]{0,20}$/), message: text(12) }),
  fc.record({ error: text(4) }),
  text(16),
  fc.constant(undefined),
);
const headers = fc.oneof(
  fc.constant({}),
  fc.record({ 'retry-after': fc.oneof(fc.constant('1'), fc.nat({ max: 100_000 }).map(String), text(2)) }),
  fc.record({ 'x-ratelimit-remaining': fc.constant('0'), 'x-ratelimit-reset': fc.nat({ max: 5_000 }).map(String) }),
);
const STATUSES = [400, 401, 403, 404, 408, 409, 410, 412, 413, 421, 422, 429, 451, 500, 501, 502, 503, 504, 507];

describe('settled composed messages are final', () => {
  it('every HTTP message is a fixed point of the final pass', () => {
    fc.assert(
      fc.property(
        toolName,
        fc.oneof(fc.constantFrom(...STATUSES), fc.integer({ min: 400, max: 599 })),
        headers,
        body,
        fc.constantFrom('read' as const, 'write' as const),
        fc.boolean(),
        (tool, status, hdrs, b, effect, deduplicates) => {
          const ctx = ctxOf({ tool, effect, deduplicates, approvalCanLift: deduplicates });
          const m = classify({ kind: 'http', status, headers: hdrs, body: b }, ctx).publicMessage;
          expect(finishPublicMessage(m)).toBe(m);
          expect(redact(m)).toBe(m);
        },
      ),
      { numRuns: Number(process.env.PP_RUNS ?? 4000) },
    );
  });
});
