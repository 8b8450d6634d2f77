/**
 * graphql-request (GraphQL over HTTP) against a real in-process GraphQL Yoga server (npm `graphql-yoga`), whose
 * resolvers raise `GraphQLError`s with the `extensions.code` values GraphQL servers commonly use (Apollo Server's
 * error codes: `UNAUTHENTICATED`, `FORBIDDEN`, `BAD_USER_INPUT`; `NOT_FOUND`, `RATE_LIMITED` as GitHub's and
 * Shopify's APIs name them) and an `extensions.http` status where the server sets one (Yoga's error docs); an
 * unexpected resolver error is masked ("Unexpected error."). A portal in front answers 200 with an HTML page.
 * graphql-request raises `ClientError` with `response: { errors, status, headers }` for GraphQL errors, and a plain
 * `Error("Invalid execution result: …")` for a body that is not a GraphQL result.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { GraphQLError } from 'graphql';
import { GraphQLClient } from 'graphql-request';
import { createSchema, createYoga } from 'graphql-yoga';
import type { Effect, UnseenCase, UnseenLibrary } from '../unseen/cases';
import { closedPort } from '../unseen/net-fixtures';

const typeDefs = /* GraphQL */ `
  type Order {
    id: Int!
    state: String!
  }
  type Query {
    order(id: Int!, fail: String): Order
  }
  type Mutation {
    placeOrder(sku: String!, quantity: Int!, fail: String): Order
  }
`;

/** The failure a resolver raises for `fail`, as the server's documentation shapes it. */
function failure(fail: string | null | undefined): Error | undefined {
  switch (fail) {
    case 'unauthenticated':
      return new GraphQLError('Access token is expired or revoked.', { extensions: { code: 'UNAUTHENTICATED' } });
    case 'forbidden':
      return new GraphQLError('You do not have permission to access orders of this store.', {
        extensions: { code: 'FORBIDDEN' },
      });
    case 'bad-user-input':
      return new GraphQLError('Quantity must be between 1 and 100.', {
        extensions: { code: 'BAD_USER_INPUT', argumentName: 'quantity' },
      });
    case 'not-found':
      return new GraphQLError('Could not resolve to an Order with the id of 42.', {
        extensions: { code: 'NOT_FOUND' },
      });
    case 'rate-limited':
      return new GraphQLError('API rate limit exceeded for this app.', {
        extensions: { code: 'RATE_LIMITED', http: { status: 429, headers: { 'retry-after': '2' } } },
      });
    case 'internal':
      return new Error('connection to the orders database lost'); // masked by Yoga: "Unexpected error."
    default:
      return undefined;
  }
}

const resolve = (_: unknown, args: { fail?: string | null; id?: number }) => {
  const err = failure(args.fail);
  if (err) throw err;
  return { id: args.id ?? 42, state: 'open' };
};

/** Yoga at /graphql, and a portal at /portal/graphql answering every request with a 200 HTML sign-in page. */
async function startServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const yoga = createYoga({
    schema: createSchema({ typeDefs, resolvers: { Query: { order: resolve }, Mutation: { placeOrder: resolve } } }),
    logging: false,
  });
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/portal')) {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><head><title>Sign in</title></head><body><form>…</form></body></html>');
      return;
    }
    void yoga(req, res);
  });
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(() => r(undefined)));
    },
  };
}

const READ = /* GraphQL */ `
  query Order($id: Int!, $fail: String) {
    order(id: $id, fail: $fail) {
      id
      state
    }
  }
`;
const WRITE = /* GraphQL */ `
  mutation Place($sku: String!, $quantity: Int!, $fail: String) {
    placeOrder(sku: $sku, quantity: $quantity, fail: $fail) {
      id
      state
    }
  }
`;

export const graphqlRequestLibrary: UnseenLibrary = {
  name: 'graphql-request',
  kind: 'GraphQL API',
  server: 'GraphQL Yoga 5 in process (extensions.code errors, masked errors), and a portal answering 200 HTML',
  async start() {
    const server = await startServer();
    const refused = `http://127.0.0.1:${await closedPort()}/graphql`;
    const client = (url = `${server.url}/graphql`) => new GraphQLClient(url);
    const read =
      (fail?: string, url?: string, id: unknown = 42) =>
      () =>
        client(url).request(READ, { id, fail });
    const write =
      (fail?: string, url?: string, quantity: unknown = 2) =>
      () =>
        client(url).request(WRITE, { sku: 'desk-1', quantity, fail });
    const one = (name: string, effect: Effect, run: () => Promise<unknown>): UnseenCase => ({
      id: `graphql-request.${name}.${effect}`,
      effect,
      run,
    });
    const portal = `${server.url}/portal/graphql`;
    const cases: UnseenCase[] = [
      one('refused', 'read', read(undefined, refused)),
      one('refused', 'write', write(undefined, refused)),
      one('unauthenticated', 'read', read('unauthenticated')),
      one('unauthenticated', 'write', write('unauthenticated')),
      one('forbidden', 'read', read('forbidden')),
      one('forbidden', 'write', write('forbidden')),
      one('bad-user-input', 'write', write('bad-user-input')),
      one('variable-type-invalid', 'read', read(undefined, undefined, 'forty-two')),
      one('variable-type-invalid', 'write', write(undefined, undefined, 'two')),
      one('not-found', 'read', read('not-found')),
      one('rate-limited-429', 'read', read('rate-limited')),
      one('rate-limited-429', 'write', write('rate-limited')),
      one('masked-internal-error', 'write', write('internal')),
      one('html-200', 'read', read(undefined, portal)),
      one('html-200', 'write', write(undefined, portal)),
    ];
    return { cases, stop: server.stop };
  },
};
