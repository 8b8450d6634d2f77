/**
 * The parts of a composed `publicMessage` (recovery/classify/public-parts.ts and message-parts.ts): which parts
 * are settled, what an unsettled one costs (the whole final pass, with its usual answer), that template sentences
 * are literals, that only the redacting module makes a part from data, and that a server's words are no part of a
 * message (issue 36: they are `serverSaid`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { classify } from '../../recovery/classify';
import { composeMessage, literal, PublicPart, toolPart } from '../../recovery/classify/public-parts';
import { publicText } from '../../recovery/classify/text';
import { ctxOf } from './classify-helpers';

const classify503 = (tool: string, body: unknown) =>
  classify({ kind: 'http', status: 503, headers: {}, body }, ctxOf({ tool }));
const http503 = (tool: string, body: unknown) => classify503(tool, body).publicMessage;
const parts = (p: PublicPart) => ({ text: p.text, settled: p.settled });

describe('toolPart', () => {
  it.each([
    ['check_inventory', 'check_inventory', true],
    ['get_session', 'get_session', true],
    ['password', 'password', false], // a secret key: it would take the template's `HTTP` as its value
    ['localhost', '[host]', false],
    ['my tool', 'my tool', false],
    ['a"b', 'a"b', false],
  ])('%s → %s, settled %s', (tool, text, settled) => {
    expect(parts(toolPart(tool))).toEqual({ text, settled });
    expect(parts(toolPart(tool))).toEqual({ text, settled }); // the memo's answer is the same
  });

  it('an unsettled name gets the whole final pass, as a plain string does', () => {
    expect(http503('password', { error: 'busy' })).toBe(
      'password: [redacted] 503, the service is unavailable; the request was not processed.',
    );
  });
});

describe('composeMessage and PublicPart', () => {
  it('a part cannot be made outside the module', () => {
    expect(() => new PublicPart(Symbol('PublicPart'), 'x', true)).toThrow(TypeError);
  });

  it('a raw string slipped into a template is refused: a server’s words go in serverSaid, never in a message', () => {
    const raw = `sk-${'a'.repeat(30)}` as unknown as PublicPart;
    expect(() => composeMessage`${raw}: x`).toThrow(
      new TypeError("composeMessage: part 0 is a string, not a PublicPart; a server's words go in serverSaid"),
    );
    expect(parts(composeMessage`${toolPart('t')}: HTTP ${503}, ${literal('w')}.`)).toEqual({
      text: 't: HTTP 503, w.',
      settled: true,
    });
  });

  it('a settled message longer than 500 characters is cut to 500 by the final pass', () => {
    const m = http503('t'.repeat(460), { message: 'word '.repeat(100) });
    expect(m).toHaveLength(500);
    expect(m.endsWith(': HTTP 503, the service is unavailable;…')).toBe(true);
  });

  it('the server words are redacted, folded and cut as serverSaid, and no part of the message', () => {
    const f = classify503('inv', { message: `password\n: hunter2 ${'word '.repeat(60)}` });
    expect(f.publicMessage).toBe('inv: HTTP 503, the service is unavailable; the request was not processed.');
    expect(f.serverSaid).toBe(`password : [redacted] ${'word '.repeat(35)}wo…`);
  });
});

describe('publicText rounds', () => {
  it('folding that makes a secret key-value is redacted again', () => {
    expect(publicText('password\n: hunter2', 200)).toBe('password : [redacted]');
  });
  it('a cut that leaves a host name is redacted again', () => {
    expect(publicText('see foo.community now', 12)).toBe('see [host]…');
  });
});

describe('literal', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
    });

  it('every call in recovery/ passes a string literal (template text, never data)', () => {
    const root = join(__dirname, '../../recovery');
    const importers = files(root).filter((path) =>
      /import \{[^}]*\bliteral\b[^}]*\} from '[./]+(classify\/)?(public|message)-parts'/.test(
        readFileSync(path, 'utf8'),
      ),
    );
    expect(importers.length).toBeGreaterThanOrEqual(3);
    const calls = importers.flatMap((path) =>
      [...readFileSync(path, 'utf8').matchAll(/(?<![.\w])literal\(\s*([^)\s][^)]{0,40})/g)].map((m) => [path, m[1]]),
    );
    expect(calls.length).toBeGreaterThan(20);
    const nonLiteral = calls.filter(([, arg]) => !/^'/.test(arg!));
    expect(nonLiteral).toEqual([]);
  });

  it('only recovery/classify/public-parts.ts, which redacts, makes a part of other text (redactedPart)', () => {
    const root = join(__dirname, '../..');
    const makers = ['recovery', 'activities', 'workflows'].flatMap((dir) =>
      files(join(root, dir)).filter((path) => /\bredactedPart\b/.test(readFileSync(path, 'utf8'))),
    );
    expect(makers.map((path) => path.slice(root.length + 1)).sort()).toEqual([
      'recovery/classify/message-parts.ts',
      'recovery/classify/public-parts.ts',
    ]);
  });
});
