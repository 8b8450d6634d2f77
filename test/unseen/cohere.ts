/**
 * cohere-ai (model provider) against a loopback server speaking Cohere's documented errors (Cohere docs, "Errors":
 * status codes 400, 401, 402, 404, 422, 429, 498, 499, 500, 503, 504 with a body `{ message }`). The Fern-generated
 * client raises one class per status (`TooManyRequestsError`, `UnauthorizedError`, `InvalidTokenError` for 498, …),
 * each a `CohereError` with `statusCode`, `body` and `rawResponse`; `CohereTimeoutError` and a `CohereError` with a
 * `cause` for network failures. A chat is a read. Retries are off (`maxRetries: 0`).
 */
import { CohereClientV2 } from 'cohere-ai';
import type { UnseenCase, UnseenLibrary } from './cases';
import { startLoopback, type Answer } from './loopback';
import { closedPort } from './net-fixtures';

const co = (status: number, message: string, headers?: Record<string, string>): Answer => ({
  status,
  ...(headers ? { headers } : {}),
  body: { id: '3e9a1d2c-5b4f-4c6e-8a7d-1f2e3d4c5b6a', message },
});

export const cohereLibrary: UnseenLibrary = {
  name: 'cohere-ai',
  kind: 'model provider',
  server: "loopback HTTP speaking Cohere's v2 API errors",
  async start() {
    const server = await startLoopback();
    const refused = `http://127.0.0.1:${await closedPort()}`;
    const chat = (baseUrl = server.url) =>
      new CohereClientV2({ token: 'co-api-key-never-shown', baseUrl, timeoutInSeconds: 1, maxRetries: 0 }).chat({
        model: 'command-a-03-2025',
        messages: [{ role: 'user', content: 'Summarise the ticket.' }],
      });
    const one = (name: string, answer: Answer | undefined, run: () => Promise<unknown> = () => chat()): UnseenCase => ({
      id: `cohere.${name}.read`,
      effect: 'read',
      run: () => {
        if (answer) server.answer = answer;
        return run();
      },
    });
    const cases: UnseenCase[] = [
      one('refused', undefined, () => chat(refused)),
      one('answer-timeout', { status: 200, hang: true }),
      one(
        'trial-rate-limit',
        co(
          429,
          'You are using a Trial key, which is limited to 10 API calls / minute. You can continue to use the Trial key for free or upgrade to a Production key with higher rate limits.',
        ),
      ),
      one('invalid-api-token-401', co(401, 'invalid api token')),
      one('invalid-token-498', co(498, 'invalid api token')),
      one('payment-required', co(402, 'Please add or update your payment method to continue using the API.')),
      one(
        'model-not-found',
        co(
          404,
          "model 'command-z' not found, make sure the correct model ID was used and that you have access to the model.",
        ),
      ),
      one(
        'empty-message',
        co(400, 'invalid request: message must be at least 1 token long or tool results must be specified.'),
      ),
      one(
        'too-many-tokens',
        co(
          422,
          'too many tokens: total number of tokens in the prompt cannot exceed 128000 - received 131072. Try using a shorter prompt or enabling prompt truncating.',
        ),
      ),
      one('forbidden-model', co(403, 'You do not have access to this model. Please contact support.')),
      one('service-unavailable', co(503, 'service unavailable, please try again later')),
      one('gateway-timeout', co(504, 'gateway timeout')),
      one('internal-error', co(500, 'internal server error, this has been reported to our developers')),
    ];
    return { cases, stop: server.stop };
  },
};
