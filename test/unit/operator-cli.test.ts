/**
 * The operator CLI's failure line and its commands' descriptions (operator/cli.ts). No server: the program is only
 * built, never run.
 */
import { failureText, operatorCli } from '../../operator/cli';

describe('failureText', () => {
  it("carries the cause the Temporal client's own message hides, and a hint for a missing search attribute", () => {
    const err = new Error('Failed to list workflows', {
      cause: new Error('3 INVALID_ARGUMENT: invalid search attribute: RecoveryStatus'),
    });
    expect(failureText(err)).toBe(
      'Failed to list workflows: 3 INVALID_ARGUMENT: invalid search attribute: RecoveryStatus (register the plugin\'s search attributes: docs/operating.md, "Search attributes")',
    );
  });
  it('says each message once, stops after 4 causes, and reads a thrown non-Error', () => {
    expect(failureText(new Error('query failed', { cause: new Error('query failed') }))).toBe('query failed');
    let deep: Error = new Error('e5');
    for (const m of ['e4', 'e3', 'e2', 'e1']) deep = new Error(m, { cause: deep });
    expect(failureText(deep)).toBe('e1: e2: e3: e4');
    expect(failureText('plain')).toBe('plain');
  });
});

test('every approvals, reviews and desk subcommand has a description', () => {
  const program = operatorCli();
  const described = ['approvals', 'reviews', 'desk'].flatMap((group) =>
    program.commands
      .find((c) => c.name() === group)!
      .commands.map((c) => [`${group} ${c.name()}`, c.description() !== '']),
  );
  expect(described).toEqual([
    ['approvals pending', true],
    ['approvals list', true],
    ['approvals approve', true],
    ['approvals deny', true],
    ['approvals approve-batch', true],
    ['approvals revoke', true],
    ['approvals ledger', true],
    ['reviews list', true],
    ['reviews show', true],
    ['reviews decide', true],
    ['desk hash-password', true],
  ]);
});

test('reviews decide takes the decision as `reviews show` lists it (mark_applied) or as a CLI word (mark-applied); both need --result-ref', () => {
  for (const spelling of ['mark_applied', 'mark-applied']) {
    const program = operatorCli().exitOverride();
    program.configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
    for (const c of program.commands) c.exitOverride();
    const reviews = program.commands.find((c) => c.name() === 'reviews')!;
    for (const c of reviews.commands) c.exitOverride().configureOutput({ writeErr: () => undefined });
    expect(() =>
      program.parse(['reviews', 'decide', 'op-1', spelling, '--by', 'ops', '--reason', 'seen in the ledger'], {
        from: 'user',
      }),
    ).toThrow('mark-applied needs --result-ref <ref>: where the result of the applied write is');
  }
});

test('reviews decide has --confirm-risk: the run refuses a replay of a write that does not deduplicate without it', () => {
  const reviews = operatorCli().commands.find((c) => c.name() === 'reviews')!;
  const decide = reviews.commands.find((c) => c.name() === 'decide')!;
  expect(decide.options.map((o) => o.long)).toEqual(['--by', '--reason', '--result-ref', '--confirm-risk']);
});
