/**
 * grammy (chat: the Telegram Bot API client) against a loopback server speaking the Bot API's documented answers
 * (Telegram Bot API, "Making requests": `{ ok: false, error_code, description, parameters: { retry_after } }`).
 * grammy raises `GrammyError` with `ok: false`, `error_code` and `description`, and no HTTP status of its own; a
 * failed request is an `HttpError` whose `error` holds the network error.
 */
import { Api } from 'grammy';
import type { UnseenCase, UnseenLibrary } from './cases';
import { loopbackCases, startLoopback, type Answer } from './loopback';
import { closedPort } from './net-fixtures';

const TOKEN = '123456:AAbot-token-never-shown';

/** A Bot API error answer: HTTP status = error_code, the body as documented. */
const tg = (code: number, description: string, parameters?: Record<string, unknown>): Answer => ({
  status: code,
  body: { ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) },
});

export const grammyLibrary: UnseenLibrary = {
  name: 'grammy',
  kind: 'chat',
  server: 'loopback HTTP speaking the Telegram Bot API',
  async start() {
    const server = await startLoopback();
    const refused = `http://127.0.0.1:${await closedPort()}`;
    const api = (root = server.url) => new Api(TOKEN, { apiRoot: root, timeoutSeconds: 1 });
    const send = (a = api()) => a.sendMessage(-1001234, 'Deploy finished');
    const edit = () => api().editMessageText(-1001234, 77, 'Deploy finished');
    const me = (a = api()) => a.getMe();
    const one = loopbackCases('grammy', server);
    const flood = tg(429, 'Too Many Requests: retry after 3', { retry_after: 3 });
    const cases: UnseenCase[] = [
      one('refused', 'read', undefined, () => me(api(refused))),
      one('refused', 'write', undefined, () => send(api(refused))),
      one('answer-timeout', 'write', { status: 200, hang: true }, () => send()),
      one('flood-wait', 'read', flood, () => me()),
      one('flood-wait', 'write', flood, () => send()),
      one('bad-token', 'read', tg(401, 'Unauthorized'), () => me()),
      one('blocked-by-user', 'write', tg(403, 'Forbidden: bot was blocked by the user'), () => send()),
      one(
        'not-enough-rights',
        'write',
        tg(400, 'Bad Request: not enough rights to send text messages to the chat'),
        () => send(),
      ),
      one('chat-not-found', 'write', tg(400, 'Bad Request: chat not found'), () => send()),
      one('text-empty', 'write', tg(400, 'Bad Request: message text is empty'), () => send()),
      one('text-too-long', 'write', tg(400, 'Bad Request: message is too long'), () => send()),
      one(
        'not-modified',
        'write',
        tg(
          400,
          'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
        ),
        edit,
        'holds',
      ),
      one('unknown-method', 'read', tg(404, 'Not Found'), () => api().raw.getStarTransactions({})),
      one('bad-gateway', 'read', tg(502, 'Bad Gateway'), () => me()),
    ];
    return { cases, stop: server.stop };
  },
};
