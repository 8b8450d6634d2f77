/**
 * Words that may mean "already", "auth" or "transient" (issue 28): unit-level cases, no server. Each throws what a
 * tool's adapter throws — this project's `HttpOutcomeError` (what `ctx.http` raises for a non-2xx answer) or an MCP
 * `isError` result (`McpCallError.fromResult`, routed with the MCP adapter's `mcpClassifier`) — through the real
 * activity. The wordings come from the issue's field cases and from real APIs' documented messages.
 */
import { HttpOutcomeError } from '../../activities/http';
import { McpCallError } from '../../mcp';
import { mcpClassifierFor } from '../../activities/mcp/error-map';

const mcpClassifier = mcpClassifierFor();
import type { Effect, UnseenCase, UnseenLibrary } from './cases';

const http =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  async () => {
    throw new HttpOutcomeError({ kind: 'http', status, headers, body });
  };
const mcpText = (text: string) => async () => {
  throw McpCallError.fromResult('remote_tool', { content: [{ type: 'text', text }], isError: true });
};
const one = (
  name: string,
  effect: Effect,
  run: () => Promise<unknown>,
  more: Partial<UnseenCase> = {},
): UnseenCase => ({
  id: `words.${name}.${effect}`,
  effect,
  run,
  ...more,
});
const mcp = { classify: mcpClassifier };

export const wordsLibrary: UnseenLibrary = {
  name: 'words',
  kind: 'words that may mean already/auth/transient',
  server: 'none (HttpOutcomeError and MCP isError results)',
  async start() {
    const cases: UnseenCase[] = [
      one('song-already-in-playlist', 'write', http(422, { message: 'The song is already in the playlist.' }), {
        verify: 'holds',
      }),
      one(
        'member-exists-problem',
        'write',
        http(
          400,
          {
            type: 'https://mailchimp.com/developer/marketing/docs/errors/',
            title: 'Member Exists',
            status: 400,
            detail: 'ada@example.org is already a list member. Use PUT to insert or update list members.',
            instance: '2f7a1c3e-8d9b-4e6f-a1b2-c3d4e5f6a7b8',
          },
          { 'content-type': 'application/problem+json' },
        ),
        { verify: 'holds' },
      ),
      one(
        'label-already-exists-code',
        'write',
        http(422, {
          message: 'Validation Failed',
          errors: [{ resource: 'Label', code: 'already_exists', field: 'name' }],
        }),
        { verify: 'holds' },
      ),
      one('already-following-mcp', 'write', mcpText('You are already following this user.'), {
        ...mcp,
        verify: 'holds',
      }),
      one(
        'mwoauth-invalid-authorization',
        'read',
        mcpText(
          'mwoauth-invalid-authorization: The authorization headers in your request are not valid: Invalid access token',
        ),
        mcp,
      ),
      one(
        'rfc6750-invalid-token-words',
        'read',
        mcpText('The access token provided is expired, revoked, malformed, or invalid for other reasons.'),
        mcp,
      ),
      one(
        'session-expired',
        'read',
        http(400, { error: 'session_expired', message: 'Your session has expired. Please sign in again.' }),
      ),
      one('model-overloaded', 'read', mcpText('The model is currently overloaded. Please try again later.'), mcp),
      one('resource-temporarily-unavailable', 'read', mcpText('Resource temporarily unavailable, try again'), mcp),
      one('insufficient-scopes', 'read', mcpText('Request had insufficient authentication scopes.'), mcp),
    ];
    return { cases, stop: async () => undefined };
  },
};
