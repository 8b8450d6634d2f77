/**
 * `recovery-router desk`: starts the approval and review desk (operator/desk/server.ts) with the `desk` section of
 * temporal.config.json, connected like the other commands; `recovery-router desk hash-password` prints the scrypt
 * hash of a password for `desk.users` (docs/approvals.md).
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { loadConfig } from '../config/load';
import { connectClient } from './connect';
import { hashPassword } from './desk/password';
import { startDesk } from './desk/server';

interface DeskFlags {
  host?: string;
  port?: string;
  keyFile?: string;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Adds `desk` and `desk hash-password`. */
export function addDeskCommand(program: Command, configPath: () => string | undefined): void {
  const desk = program
    .command('desk')
    .description('the approval and review desk in the browser (listens on 127.0.0.1:7480 unless configured)')
    .option('--host <address>', 'address to listen on (default: desk.host, 127.0.0.1)')
    .option('--port <port>', 'port to listen on (default: desk.port, 7480)')
    .option('--key-file <path>', 'the approval signing key, when the workers require signed approvals')
    .action((flags: DeskFlags) => runDesk(program, configPath(), flags));
  desk
    .command('hash-password')
    .description('read a password on stdin and print its scrypt hash for desk.users')
    .action(async () => console.log(await hashPassword(await readPassword())));
}

async function runDesk(program: Command, configPath: string | undefined, flags: DeskFlags): Promise<void> {
  const config = loadConfig(configPath);
  const deskConfig = {
    ...config.desk,
    ...(flags.host ? { host: flags.host } : {}),
    ...(flags.port ? { port: Number(flags.port) } : {}),
  };
  if (deskConfig.users.length === 0 && !deskConfig.proxy)
    program.error('no operator can log in: add desk.users (recovery-router desk hash-password) or desk.proxy');
  const keyFile = flags.keyFile ?? deskConfig.signingKeyFile;
  const client = await connectClient(configPath);
  const running = await startDesk({
    client,
    config: deskConfig,
    ...(keyFile ? { signingKey: readFileSync(keyFile) } : {}),
  });
  console.log(`Recovery Router desk at ${running.url} (namespace ${client.options.namespace}). Ctrl-C stops it.`);
  if (!LOOPBACK.has(deskConfig.host) && !deskConfig.secureCookies)
    console.warn('WARN the desk listens beyond loopback without desk.secureCookies: put it behind a TLS proxy.');
  exitOnSignal(() => running.close().then(() => client.connection.close()));
}

/** On Ctrl-C (SIGINT) or SIGTERM: `stop`, then exit 0. */
export function exitOnSignal(stop: () => Promise<unknown>): void {
  const exit = () => void stop().then(() => process.exit(0));
  process.once('SIGINT', exit);
  process.once('SIGTERM', exit);
}

/** The password from stdin: the whole input without its last line break, or typed on a terminal without echo. */
async function readPassword(): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  }
  process.stderr.write('Password (not shown): ');
  stdin.setRawMode(true);
  let typed = '';
  for await (const chunk of stdin as AsyncIterable<Buffer>) {
    const text = chunk.toString('utf8');
    if (text === '\u0003') process.exit(130); // Ctrl-C
    if (/[\r\n]/.test(text)) {
      typed += text.split(/[\r\n]/)[0];
      break;
    }
    typed = text === '\u007f' ? typed.slice(0, -1) : typed + text;
  }
  stdin.setRawMode(false);
  stdin.pause();
  process.stderr.write('\n');
  return typed;
}
