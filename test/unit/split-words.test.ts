/** One word splitter (recovery/classify/words.ts `splitWords`) serves the classifier's tokens and the redaction's keys. */
import { splitWords, tokens } from '../../recovery/classify/words';
import { keyWords } from '../../recovery/redact-keys';

describe('splitWords', () => {
  it.each<[string, string[]]>([
    ['rateLimitExceeded', ['rate', 'limit', 'exceeded']],
    ['HTTPError', ['http', 'error']],
    ['ERR_HTTP2_STREAM_ERROR', ['err', 'http', '2', 'stream', 'error']],
    // a digit between letters stands alone on both sides (before: `http2Session` gave http, 2session)
    ['http2Session', ['http', '2', 'session']],
    ['s3Error', ['s', '3', 'error']],
    ['a1b', ['a', '1', 'b']],
    ['x-hub-signature-256', ['x', 'hub', 'signature', '256']],
    ['  --  ', []],
  ])('%j → %j, for tokens and keyWords alike', (text, words) => {
    expect(splitWords(text)).toEqual(words);
    expect(tokens(text)).toEqual(words);
    expect(keyWords(text)).toEqual(words);
  });

  test('tokens reads 64 words of the first 2,000 characters; keyWords the last 200 characters', () => {
    const many = Array.from({ length: 100 }, (_, i) => `w${'x'.repeat(i % 5)}`).join(' ');
    expect(tokens(many)).toHaveLength(64);
    expect(tokens(`${'a'.repeat(1_999)} tail`)).toEqual(['a'.repeat(1_999)]);
    expect(keyWords(`head_${'b'.repeat(200)}_key`)).toEqual(['b'.repeat(196), 'key']);
  });
});
