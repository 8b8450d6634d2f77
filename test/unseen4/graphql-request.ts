/**
 * graphql-request (GraphQL over HTTP) against a real in-process GraphQL Yoga server (npm `graphql-yoga`), whose
 * resolvers raise `GraphQLError`s with the `extensions.code` values GraphQL servers commonly use (Apollo Server's
 * error codes: `UNAUTHENTICATED`, `FORBIDDEN`, `BAD_USER_INPUT`; `NOT_FOUND`, `RATE_LIMITED` as GitHub's and
 * Shopify's APIs name them; `AUTHENTICATION_FAILED` with a 403 as gateways answer a failed authentication;
 * `ResourceLimitExceeded` with a 400 as AWS APIs name an account limit) and an `extensions.http` status where the
 * server sets one (Yoga's error docs); an unexpected resolver error is masked ("Unexpected error."). A portal in
 * front answers 200 with an HTML page.
 * graphql-request raises `ClientError` with `response: { errors, status, headers }` for GraphQL errors, and a plain
 * `Error("Invalid execution result: …")` for a body that is not a GraphQL result. A tool module written for an older
 * graphql-request fails to link (a `SyntaxError` from its dynamic import).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
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
    case 'authentication-failed':
      // A gateway that answers a failed authentication with 403, as Azure Storage (`AuthenticationFailed`) and
      // 3scale APIcast ("Authentication failed") do.
      return new GraphQLError('Authentication failed: the request signature does not match the access key.', {
        extensions: { code: 'AUTHENTICATION_FAILED', http: { status: 403 } },
      });
    case 'resource-limit':
      // An account resource limit, named as AWS APIs name it (SageMaker `ResourceLimitExceeded`, HTTP 400).
      return new GraphQLError('You have exceeded a resource limit: at most 100 open orders per account.', {
        extensions: { code: 'ResourceLimitExceeded', http: { status: 400 } },
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

/**
 * A tool module (ESM) written against graphql-request 6, which exported `GraphQLWebSocketClient`; version 7 does
 * not. Importing it fails while Node links the module graph, before any of its code runs: `SyntaxError: The
 * requested module 'graphql-request' does not provide an export named 'GraphQLWebSocketClient'` (Node.js docs,
 * "Modules: ECMAScript modules", named imports are resolved at link time). The module sits in a temp dir whose
 * node_modules links to the installed graphql-request.
 */
function staleToolModule(): { load: (effect: Effect) => () => Promise<unknown>; stop: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'unseen4-esm-'));
  // require.resolve gives build/entrypoints/main.cjs; the package exports no package.json to resolve instead.
  const pkg = join(dirname(require.resolve('graphql-request')), '..', '..');
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(pkg, join(dir, 'node_modules', 'graphql-request'), 'dir');
  writeFileSync(
    join(dir, 'orders-tool.mjs'),
    [
      "import { GraphQLClient, GraphQLWebSocketClient } from 'graphql-request';",
      'export const clients = { http: GraphQLClient, ws: GraphQLWebSocketClient };',
      '',
    ].join('\n'),
  );
  // A dynamic import() as written: TypeScript's CommonJS output would turn `import()` into `require()`.
  const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;
  const url = pathToFileURL(join(dir, 'orders-tool.mjs')).href;
  return {
    // One module instance per case (a query string), so no case sees another's cached link failure.
    load: (effect) => () => importEsm(`${url}?${effect}`),
    stop: () => rmSync(dir, { recursive: true, force: true }),
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
    const stale = staleToolModule();
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
      one('authentication-failed-403', 'read', read('authentication-failed')),
      one('authentication-failed-403', 'write', write('authentication-failed')),
      one('resource-limit-exceeded-400', 'write', write('resource-limit')),
      one('module-link-syntax-error', 'read', stale.load('read')),
      one('module-link-syntax-error', 'write', stale.load('write')),
    ];
    return {
      cases,
      stop: async () => {
        stale.stop();
        await server.stop();
      },
    };
  },
};
