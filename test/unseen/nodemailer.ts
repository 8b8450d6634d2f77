/**
 * nodemailer (mail) against the real `smtp-server` package on loopback, whose handlers reply with any RFC 5321
 * reply code and RFC 3463 enhanced code. nodemailer raises `Error`s with a string `code` (`EENVELOPE`, `EAUTH`,
 * `ECONNECTION`, `ESOCKET`, `ETIMEDOUT`), the reply on `response` and its number on `responseCode`.
 * `sendMail` is the write; `verify()` (connect, greet, authenticate) is the read.
 */
import type { Socket } from 'node:net';
import nodemailer from 'nodemailer';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import type { Effect, UnseenCase, UnseenLibrary } from './cases';
import { closedPort, freePort } from './net-fixtures';

/** What the server does for the current case. */
interface Script {
  /** Reply to the connection with this code (no greeting); `'hang'` never greets. */
  connect?: number | 'hang';
  auth?: number;
  mailFrom?: number;
  rcptTo?: number;
  /** Reply to the end of DATA with this code; `'reset'` cuts the connection, `'hang'` never replies. */
  data?: number | 'reset' | 'hang';
  message?: string;
}

const reply = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

function serverOptions(script: () => Script, lastSocket: () => Socket | undefined): SMTPServerOptions {
  return {
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, cb) {
      const s = script();
      if (s.connect === 'hang') return;
      cb(typeof s.connect === 'number' ? reply(s.connect, s.message ?? '') : undefined);
    },
    onAuth(_auth, _session, cb) {
      const s = script();
      if (s.auth) return cb(reply(s.auth, s.message ?? ''));
      cb(null, { user: 'agent' });
    },
    onMailFrom(_a, _session, cb) {
      const s = script();
      cb(s.mailFrom ? reply(s.mailFrom, s.message ?? '') : undefined);
    },
    onRcptTo(_a, _session, cb) {
      const s = script();
      cb(s.rcptTo ? reply(s.rcptTo, s.message ?? '') : undefined);
    },
    onData(stream, _session, cb) {
      const s = script();
      stream.resume();
      stream.on('end', () => {
        if (s.data === 'hang') return;
        if (s.data === 'reset') return void lastSocket()?.resetAndDestroy();
        cb(typeof s.data === 'number' ? reply(s.data, s.message ?? '') : null);
      });
    },
  };
}

export const nodemailerLibrary: UnseenLibrary = {
  name: 'nodemailer',
  kind: 'mail',
  server: 'smtp-server 3 (npm) on loopback, replying with scripted RFC 5321 codes',
  async start() {
    let script: Script = {};
    let last: Socket | undefined;
    const server = new SMTPServer(
      serverOptions(
        () => script,
        () => last,
      ),
    );
    server.server.on('connection', (s: Socket) => (last = s));
    const port = await freePort();
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    const refused = await closedPort();
    const transport = (p = port, auth = false) =>
      nodemailer.createTransport({
        host: '127.0.0.1',
        port: p,
        secure: false,
        ignoreTLS: true,
        connectionTimeout: 1_000,
        greetingTimeout: 1_000,
        // Longer than the greeting timeout, so a server that never greets always ends by that one, under load too.
        socketTimeout: 2_500,
        ...(auth ? { auth: { user: 'agent', pass: 'app-password-never-shown' } } : {}),
      });
    const send = (p?: number, auth?: boolean) =>
      transport(p, auth).sendMail({ from: 'agent@example.org', to: 'ada@example.org', subject: 'Hi', text: 'Hello' });
    const one = (name: string, effect: Effect, s: Script, p?: number, auth?: boolean): UnseenCase => ({
      id: `nodemailer.${name}.${effect}`,
      effect,
      run: async () => {
        script = s;
        await (effect === 'write' ? send(p, auth) : transport(p, auth).verify());
      },
    });
    const cases: UnseenCase[] = [
      one('greeting-421', 'read', { connect: 421, message: '4.3.2 Service not available, closing channel' }),
      one('greeting-421', 'write', { connect: 421, message: '4.3.2 Service not available, closing channel' }),
      one('greeting-timeout', 'read', { connect: 'hang' }),
      one('greeting-timeout', 'write', { connect: 'hang' }),
      one('refused', 'read', {}, refused),
      one('refused', 'write', {}, refused),
      one('auth-535', 'read', { auth: 535, message: '5.7.8 Authentication credentials invalid' }, port, true),
      one('auth-535', 'write', { auth: 535, message: '5.7.8 Authentication credentials invalid' }, port, true),
      one('auth-454', 'write', { auth: 454, message: '4.7.0 Temporary authentication failure' }, port, true),
      one('mail-from-530', 'write', { mailFrom: 530, message: '5.7.0 Authentication required' }),
      one('mail-from-451', 'write', { mailFrom: 451, message: '4.7.1 Greylisted, please try again later' }),
      one('mail-from-421', 'write', { mailFrom: 421, message: '4.4.5 Too many connections, try again later' }),
      one('mail-from-553', 'write', { mailFrom: 553, message: "5.1.7 Bad sender's mailbox address syntax" }),
      one('rcpt-450', 'write', { rcptTo: 450, message: '4.2.1 Mailbox temporarily unavailable' }),
      one('rcpt-452', 'write', { rcptTo: 452, message: '4.5.3 Too many recipients' }),
      one('rcpt-550', 'write', {
        rcptTo: 550,
        message: '5.1.1 The email account that you tried to reach does not exist',
      }),
      one('data-451', 'write', { data: 451, message: '4.3.0 Local error in processing' }),
      one('data-452', 'write', { data: 452, message: '4.3.1 Insufficient system storage' }),
      one('data-552', 'write', { data: 552, message: '5.3.4 Message size exceeds fixed maximum message size' }),
      one('data-554', 'write', { data: 554, message: '5.7.1 Message rejected as spam by content filtering' }),
      one('data-reset', 'write', { data: 'reset' }),
      one('data-no-reply', 'write', { data: 'hang' }),
    ];
    return {
      cases,
      stop: () => new Promise<void>((r) => server.close(() => r())),
    };
  },
};
