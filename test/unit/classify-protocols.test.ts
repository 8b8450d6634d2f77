/**
 * Protocols, not libraries (issue 38): a code is read in the table of the protocol the error speaks, decided from its
 * facts; codes outrank words and words refine them; a refusal is a refusal; a word counts only in its role. Pure:
 * errors built as the clients of test/unseen4 build them (basic-ftp, ldapts, ldapjs, mqtt, amqplib, imapflow,
 * ssh2-sftp-client, @supabase/postgrest-js, knex, graphql-request), classified by `classify`; no servers.
 */
import { classify, type CallContext } from '../../recovery/classify';
import { agrees } from '../../recovery/classify/protocols/table';
import { routeFor } from '../../recovery/routes';
import { READ, WRITE } from './classify-helpers';

const err = (message: string, fields: Record<string, unknown> = {}) => Object.assign(new Error(message), fields);

function route(error: unknown, ctx: CallContext = READ) {
  const f = classify({ kind: 'thrown', error }, ctx);
  return {
    class: f.class,
    reason: f.reason,
    action: routeFor(f).action,
    applied: f.replaySafe ? 'no' : 'maybe',
    message: f.publicMessage,
  };
}

describe('a code is read only in the table of the protocol that speaks it', () => {
  test("FTP 553 (the error's name says FTP) is FTP's, refined by its words: forbidden, and the model reads FTP", () => {
    const r = route(err("553 Can't open that file: Permission denied", { name: 'FTPError', code: 553 }), WRITE);
    expect(r).toMatchObject({ class: 'authorization', reason: 'forbidden', action: 'stop', applied: 'no' });
    expect(r.message).toBe('create_payment: FTP 553 file name not allowed: the caller is not allowed to do this.');
  });

  test("SMTP 553 (an enhanced status code of its class in the reply) is SMTP's: the address syntax", () => {
    const smtp = err("Mail command failed: 553 5.1.7 Bad sender's mailbox address syntax", {
      code: 'EENVELOPE',
      responseCode: 553,
      response: "553 5.1.7 Bad sender's mailbox address syntax",
    });
    expect(route(smtp, WRITE)).toMatchObject({
      class: 'invalid_arguments',
      action: 'repair',
      message: "create_payment: SMTP 553 5.1.7: the mail server refused an address's syntax.",
    });
  });

  test("a reply code with no fact of a protocol is no protocol's: its words decide, and no protocol is named", () => {
    const r = route(err('553 Permission denied', { code: 553 }), WRITE);
    expect(r).toMatchObject({ class: 'authorization', action: 'stop' });
    expect(r.message).not.toMatch(/SMTP|FTP/);
  });

  test("code 3 is SFTP's when the words repeat SSH_FX_PERMISSION_DENIED, LDAP's when the name repeats timeLimitExceeded", () => {
    expect(route(err('get: Permission denied /srv/payroll.csv', { code: 3, custom: true }))).toMatchObject({
      class: 'authorization',
      message: 'get_docs: SFTP 3 SSH_FX_PERMISSION_DENIED: the caller is not allowed to do this.',
    });
    expect(route(err(' Code: 0x3', { name: 'TimeLimitExceededError', code: 3 }))).toMatchObject({
      class: 'transient',
      reason: 'timeout',
      action: 'retry',
    });
  });

  test('AMQP needs its reply form, `404 (NOT-FOUND)`; a bare 404 "Not Found" is the HTTP status in words', () => {
    const amqp = route(err(`Channel closed by server: 404 (NOT-FOUND) with message "NOT_FOUND - no queue 'x'"`));
    expect(amqp.message).toContain('AMQP 404 not-found');
    const http = route(err('Not Found', { code: 404 }));
    expect([http.class, http.reason, http.message]).toEqual([
      'semantic_rejection',
      'not_found',
      'get_docs: HTTP 404, the resource or endpoint was not found; retrying will not change that.',
    ]);
  });

  test("an IMAP response code in a tagged NO outranks the library's own flag (UNAVAILABLE is not the credential)", () => {
    const imap = (code: string) =>
      err('Command failed', {
        response: `2 NO [${code}] Temporary authentication failure.`,
        authenticationFailed: true,
      });
    expect(route(imap('UNAVAILABLE'), WRITE)).toMatchObject({ class: 'transient', action: 'retry', applied: 'no' });
    expect(route(imap('AUTHENTICATIONFAILED'), WRITE)).toMatchObject({ class: 'authentication', applied: 'no' });
    expect(route(imap('OVERQUOTA'), WRITE)).toMatchObject({
      class: 'unrecoverable',
      action: 'escalate',
      applied: 'no',
    });
  });

  test('agreement compares word stems, or the whole name run together', () => {
    expect(agrees('foreign_key_violation', 'violates foreign key constraint "orders_customer_id_fkey"')).toBe(true);
    expect(agrees('objectClassViolation', 'ObjectclassViolationError Objectclass Violation')).toBe(true);
    expect(agrees('unique_violation', 'duplicate')).toBe(false);
  });
});

describe('codes outrank words; words refine a broad code into the refusal they name', () => {
  test.each([
    ["550 Can't open inbox/missing.csv: No such file or directory", 'semantic_rejection', 'not_found'],
    ["550 Can't open payroll.csv: Permission denied", 'authorization', 'forbidden'],
    ["550-Can't create directory: File exists", 'semantic_rejection', 'conflict'],
  ])('FTP %s → %s/%s', (message, cls, reason) => {
    expect(route(err(message, { name: 'FTPError', code: 550 }), WRITE)).toMatchObject({ class: cls, reason });
  });

  test('a code that is not broad keeps its meaning: FTP 552 with "Permission denied" stays an exhausted quota', () => {
    const r = route(err('552 Permission denied: quota', { name: 'FTPError', code: 552 }), WRITE);
    expect([r.class, r.action]).toEqual(['unrecoverable', 'escalate']);
  });

  test('a permission refused while the session is set up is the credential; after it, a permission', () => {
    const connack = err('Connection refused: Not authorized', { name: 'ErrorWithReasonCode', code: 135 });
    const puback = err('Publish error: Not authorized', { name: 'ErrorWithReasonCode', code: 135 });
    expect(route(connack, WRITE)).toMatchObject({ class: 'authentication', action: 'reauth', applied: 'no' });
    expect(route(puback, WRITE)).toMatchObject({ class: 'authorization', action: 'stop', applied: 'no' });
    const login = err(
      'Handshake terminated by server: 403 (ACCESS-REFUSED) with message "ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN."',
    );
    expect(route(login)).toMatchObject({ class: 'authentication', action: 'reauth' });
  });

  test('AMQP 406 precondition-failed: "larger than configured max size" → repair; "inequivalent arg" → replan', () => {
    const channel = (text: string) =>
      err(`Channel closed by server: 406 (PRECONDITION-FAILED) with message "PRECONDITION_FAILED - ${text}"`, {
        code: 406,
      });
    expect(route(channel('message size 8192 is larger than configured max size 4096'), WRITE)).toMatchObject({
      class: 'invalid_arguments',
      action: 'repair',
    });
    expect(route(channel("inequivalent arg 'durable' for queue 'jobs'"), WRITE)).toMatchObject({
      class: 'semantic_rejection',
      reason: 'precondition_failed',
    });
  });
});

describe('a refusal is a refusal: a write the code says was refused or not processed is replay-safe', () => {
  test("SQLSTATE 40P01 and 23503 without a SQL client's fields: the words repeat the code's name", () => {
    const postgrest = (code: string, message: string) => err(message, { name: 'PostgrestError', code, hint: null });
    expect(route(postgrest('40P01', 'deadlock detected'), WRITE)).toMatchObject({
      class: 'transient',
      reason: 'aborted',
      action: 'retry',
      applied: 'no',
    });
    expect(
      route(postgrest('23503', 'insert or update on table "orders" violates foreign key constraint "fk"'), WRITE),
    ).toMatchObject({ class: 'semantic_rejection', reason: 'precondition_failed', applied: 'no' });
  });

  test('a message that is a reason phrase, whole, is that status: "Too many requests" on a write → 429, retry', () => {
    expect(route(err('Too many requests', { name: 'PostgrestError' }), WRITE)).toMatchObject({
      class: 'transient',
      reason: 'rate_limited',
      action: 'retry',
      applied: 'no',
    });
  });

  test('a timeout a class name says, in the stage its words say (acquiring a connection), was never sent', () => {
    const knex = err('Knex: Timeout acquiring a connection. The pool is probably full.', { name: 'KnexTimeoutError' });
    expect(route(knex, WRITE)).toMatchObject({ class: 'transient', reason: 'timeout', applied: 'no' });
    // Said by words alone, it may still have been sent.
    expect(route(err('Timeout acquiring a connection'), WRITE)).toMatchObject({ class: 'outcome_unknown' });
  });
});

describe('a word counts only in its role; error names are words', () => {
  test('"Invalid execution result" with a sign-in page: a read is rejected, a write may have run', () => {
    const page = err('Invalid execution result: result is not object or array.\nGot:\n<!doctype html><html></html>');
    expect(route(page)).toMatchObject({ class: 'invalid_result', action: 'reject' });
    expect(route(page, WRITE)).toMatchObject({ class: 'outcome_unknown', action: 'reconcile', applied: 'maybe' });
    expect(route(err('<html><body>Sign in</body></html>', { code: '' }))).toMatchObject({ class: 'invalid_result' });
  });

  test("a module that does not link is the tool's own bug: escalated, and a write stays not replay-safe", () => {
    const link = new SyntaxError("The requested module 'graphql-request' does not provide an export named 'X'");
    expect(route(link)).toMatchObject({ class: 'unrecoverable', reason: 'tool_bug', action: 'escalate' });
    expect(route(link, WRITE)).toMatchObject({ class: 'unrecoverable', action: 'escalate', applied: 'maybe' });
  });

  test('error names split at case boundaries: OptimisticLockError, InsufficientAccessRightsError', () => {
    expect(
      route(err('The optimistic lock on entity Order failed', { name: 'OptimisticLockError' }), WRITE),
    ).toMatchObject({
      class: 'semantic_rejection',
      reason: 'conflict',
      applied: 'no',
    });
    expect(route(err('x', { name: 'InsufficientAccessRightsError' }), WRITE)).toMatchObject({
      class: 'authorization',
      applied: 'no',
    });
  });

  test('a GraphQL error code in an HTTP answer refines its status: 403 AUTHENTICATION_FAILED, 400 ResourceLimitExceeded', () => {
    const graphql = (status: number, code: string) =>
      err('refused', {
        response: {
          status,
          headers: {},
          data: null,
          errors: [{ message: 'refused', locations: [], path: ['order'], extensions: { code } }],
        },
      });
    expect(route(graphql(403, 'AUTHENTICATION_FAILED'), WRITE)).toMatchObject({
      class: 'authentication',
      applied: 'no',
    });
    expect(route(graphql(400, 'ResourceLimitExceeded'), WRITE)).toMatchObject({
      class: 'unrecoverable',
      action: 'escalate',
      applied: 'no',
    });
  });
});
