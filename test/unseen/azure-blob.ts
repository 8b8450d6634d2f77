/**
 * @azure/storage-blob (object storage) against Azurite, Microsoft's Azure Storage emulator from npm, with a TCP proxy
 * for lost answers. The SDK raises `RestError`s with `statusCode`, a string `code` (the service's error code:
 * `ContainerNotFound`, `AuthenticationFailed`, …) and `details.errorCode`; a socket error becomes a `RestError`
 * whose `code` is the errno. The SDK's retries are off (`maxTries: 1`: Temporal owns retries).
 */
import { join } from 'node:path';
import { BlobServiceClient, StorageSharedKeyCredential, type ContainerClient } from '@azure/storage-blob';
import type { Effect, UnseenCase, UnseenLibrary } from './cases';
import { blackhole, closedPort, freePort, spawnServer, tcpProxy } from './net-fixtures';

/** Azurite's well-known development account (Azure docs, "Use the Azurite emulator": the published dev key). */
const ACCOUNT = 'devstoreaccount1';
const DEV_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
const WRONG_KEY = Buffer.from('not-the-account-key-not-the-account-key!').toString('base64');

function service(port: number, key = DEV_KEY): BlobServiceClient {
  return new BlobServiceClient(`http://127.0.0.1:${port}/${ACCOUNT}`, new StorageSharedKeyCredential(ACCOUNT, key), {
    retryOptions: { maxTries: 1, tryTimeoutInMs: 1_500 },
  });
}

/** Each call gives up after 1 500 ms (the SDK's `abortSignal`; `tryTimeoutInMs` does not bound the TCP connect). */
const deadline = () => AbortSignal.timeout(1_500);
const upload = (c: ContainerClient, name: string, conditions = {}) =>
  c.getBlockBlobClient(name).upload('report body', 11, { conditions, abortSignal: deadline() });

export const azureBlobLibrary: UnseenLibrary = {
  name: '@azure/storage-blob',
  kind: 'object storage',
  server: 'Azurite 3 blob service (npm), in memory, and a TCP proxy',
  async start() {
    const port = await freePort();
    const main = join(__dirname, '..', '..', 'node_modules', 'azurite', 'dist', 'src', 'blob', 'main.js');
    const args = [
      main,
      '--blobHost',
      '127.0.0.1',
      '--blobPort',
      `${port}`,
      '--inMemoryPersistence',
      '--silent',
      '--skipApiVersionCheck',
    ];
    const azurite = await spawnServer(process.execPath, args, port, 30_000);
    const reports = service(port).getContainerClient('reports');
    await reports.create();
    await upload(reports, 'q1.txt');
    await reports.getBlockBlobClient('leased.txt').upload('x', 1);
    await reports.getBlobClient('leased.txt').getBlobLeaseClient().acquireLease(60);
    const proxy = await tcpProxy(port);
    const hole = await blackhole();
    const refused = await closedPort();
    const on = (p: number, key?: string) => service(p, key).getContainerClient('reports');
    const one = (name: string, effect: Effect, run: () => Promise<unknown>, verify?: 'holds'): UnseenCase => ({
      id: `azure-blob.${name}.${effect}`,
      effect,
      run,
      ...(verify ? { verify } : {}),
    });
    const read = (c: ContainerClient, blob = 'q1.txt', offset = 0) =>
      c.getBlobClient(blob).download(offset, undefined, { abortSignal: deadline() });
    const viaProxy = (mode: typeof proxy.mode, op: (c: ContainerClient) => Promise<unknown>) => () => {
      proxy.mode = mode;
      return op(on(proxy.port));
    };
    const cases: UnseenCase[] = [
      one('refused', 'read', () => read(on(refused))),
      one('refused', 'write', () => upload(on(refused), 'q2.txt')),
      one('connect-timeout', 'read', () => read(on(hole.port))),
      one('connect-timeout', 'write', () => upload(on(hole.port), 'q2.txt')),
      one(
        'answer-timeout',
        'read',
        viaProxy('hold_answers', (c) => read(c)),
      ),
      one(
        'answer-timeout',
        'write',
        viaProxy('hold_answers', (c) => upload(c, 'q3.txt')),
      ),
      one(
        'reset-after-request',
        'write',
        viaProxy('reset_after_request', (c) => upload(c, 'q4.txt')),
      ),
      one('wrong-key', 'read', () => read(on(port, WRONG_KEY))),
      one('wrong-key', 'write', () => upload(on(port, WRONG_KEY), 'q5.txt')),
      one('container-not-found', 'read', () => read(service(port).getContainerClient('archive'))),
      one('blob-not-found', 'read', () => read(on(port), 'q9.txt')),
      one('container-exists', 'write', () => on(port).create({ abortSignal: deadline() }), 'holds'),
      one('blob-exists', 'write', () => upload(on(port), 'q1.txt', { ifNoneMatch: '*' }), 'holds'),
      one('etag-mismatch', 'write', () => upload(on(port), 'q1.txt', { ifMatch: '"0x8D000000000000"' })),
      one('lease-missing', 'write', () => upload(on(port), 'leased.txt')),
      one('invalid-range', 'read', () => read(on(port), 'q1.txt', 1_000)),
    ];
    return {
      cases,
      stop: async () => {
        await proxy.stop();
        await hole.stop();
        await azurite.stop();
      },
    };
  },
};
