/**
 * AWS SDK v3 errors: `@aws-sdk/client-s3` and `@aws-sdk/client-dynamodb` against moto (the run's server,
 * test/setup/moto-server.ts), and a loopback server speaking AWS's documented error formats for what moto does not
 * produce without IAM set up (AccessDenied, InvalidAccessKeyId, SignatureDoesNotMatch, SlowDown,
 * ThrottlingException) and for an XML body where the JSON protocol was expected. The SDKs retry nothing
 * (`maxAttempts: 1`): Temporal owns retries.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CreateTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { expectClean, invoke, summary, toolCalling } from './invoke';

const credentials = { accessKeyId: 'AKIATESTKEY1234567890', secretAccessKey: 'test-secret-key-do-not-show' };
const motoUrl = process.env.RR_MOTO_URL!;
const motoPort = new URL(motoUrl).port;
const clientConfig = (endpoint: string) => ({ endpoint, region: 'us-east-1', credentials, maxAttempts: 1 });
const s3 = (endpoint = motoUrl) => new S3Client({ ...clientConfig(endpoint), forcePathStyle: true });
const ddb = (endpoint = motoUrl) => new DynamoDBClient(clientConfig(endpoint));
const LEAKS = [motoPort, credentials.accessKeyId, credentials.secretAccessKey, 'secret-item-value'];

const tool = toolCalling;

beforeAll(async () => {
  await s3().send(new CreateBucketCommand({ Bucket: 'rr-bucket' }));
  await s3().send(new PutObjectCommand({ Bucket: 'rr-bucket', Key: 'present.txt', Body: 'hello' }));
  await ddb().send(
    new CreateTableCommand({
      TableName: 'rr-items',
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  await ddb().send(
    new PutItemCommand({ TableName: 'rr-items', Item: { id: { S: 'taken' }, v: { S: 'secret-item-value' } } }),
  );
});

describe('S3 on moto', () => {
  test('NoSuchKey → semantic_rejection/not_found → replan', async () => {
    const r = await invoke(
      tool('get_object', 'read', () => s3().send(new GetObjectCommand({ Bucket: 'rr-bucket', Key: 'missing.txt' }))),
      {},
      { label: ['aws-sdk s3', 'NoSuchKey'] },
    );
    expect(summary(r)).toEqual({
      class: 'semantic_rejection',
      reason: 'not_found',
      action: 'replan',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expect(r.failure).toMatchObject({ status: 404, code: 'no_such_key' });
    expectClean(r.failure.publicMessage, LEAKS);
  });

  test('NoSuchBucket → semantic_rejection/not_found → replan', async () => {
    const r = await invoke(
      tool('get_object', 'read', () => s3().send(new GetObjectCommand({ Bucket: 'rr-no-bucket', Key: 'x' }))),
      {},
      { label: ['aws-sdk s3', 'NoSuchBucket'] },
    );
    expect(summary(r)).toEqual({
      class: 'semantic_rejection',
      reason: 'not_found',
      action: 'replan',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expect(r.failure.code).toBe('no_such_bucket');
  });

  test('PreconditionFailed (If-Match with another ETag) → semantic_rejection/precondition_failed → replan', async () => {
    const r = await invoke(
      tool('get_if_match', 'read', () =>
        s3().send(new GetObjectCommand({ Bucket: 'rr-bucket', Key: 'present.txt', IfMatch: '"0000"' })),
      ),
      {},
      { label: ['aws-sdk s3', 'PreconditionFailed'] },
    );
    expect(summary(r)).toEqual({
      class: 'semantic_rejection',
      reason: 'precondition_failed',
      action: 'replan',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expect(r.failure.status).toBe(412);
  });
});

describe('DynamoDB on moto', () => {
  test('ConditionalCheckFailedException on a write → semantic_rejection/precondition_failed → replan', async () => {
    const put = () =>
      ddb().send(
        new PutItemCommand({
          TableName: 'rr-items',
          Item: { id: { S: 'taken' } },
          ConditionExpression: 'attribute_not_exists(id)',
        }),
      );
    const r = await invoke(
      tool('put_item', 'write', put),
      {},
      { label: ['aws-sdk dynamodb', 'ConditionalCheckFailedException'] },
    );
    expect(summary(r)).toEqual({
      class: 'semantic_rejection',
      reason: 'precondition_failed',
      action: 'replan',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expect(r.failure).toMatchObject({ status: 400, code: 'conditional_check_failed', replaySafe: true });
    expectClean(r.failure.publicMessage, LEAKS);
  });

  test('ResourceNotFoundException (no such table) → semantic_rejection/not_found → replan', async () => {
    const r = await invoke(
      tool('get_item', 'read', () =>
        ddb().send(new GetItemCommand({ TableName: 'rr-missing', Key: { id: { S: 'a' } } })),
      ),
      {},
      { label: ['aws-sdk dynamodb', 'ResourceNotFoundException'] },
    );
    expect(summary(r)).toEqual({
      class: 'semantic_rejection',
      reason: 'not_found',
      action: 'replan',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
  });

  test('ValidationException (an item without its key) → invalid_arguments → repair', async () => {
    const r = await invoke(
      tool('put_item', 'write', () =>
        ddb().send(new PutItemCommand({ TableName: 'rr-items', Item: { other: { S: 'x' } } })),
      ),
      {},
      { label: ['aws-sdk dynamodb', 'ValidationException'] },
    );
    expect(summary(r)).toEqual({
      class: 'invalid_arguments',
      reason: 'schema',
      action: 'repair',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
  });

  test('TransactionCanceledException (reason ConditionalCheckFailed) → precondition_failed → replan; nothing applied', async () => {
    const tx = () =>
      ddb().send(
        new TransactWriteItemsCommand({
          TransactItems: [
            { Put: { TableName: 'rr-items', Item: { id: { S: 'fresh' } } } },
            {
              Put: {
                TableName: 'rr-items',
                Item: { id: { S: 'taken' } },
                ConditionExpression: 'attribute_not_exists(id)',
              },
            },
          ],
        }),
      );
    const r = await invoke(
      tool('transact', 'write', tx),
      {},
      { label: ['aws-sdk dynamodb', 'TransactionCanceledException'] },
    );
    expect(summary(r)).toEqual({
      class: 'semantic_rejection',
      reason: 'precondition_failed',
      action: 'replan',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expect(r.failure.publicMessage).toContain('cancellation reason ConditionalCheckFailed');
    const fresh = await ddb().send(new GetItemCommand({ TableName: 'rr-items', Key: { id: { S: 'fresh' } } }));
    expect(fresh.Item).toBeUndefined();
  });
});

describe('AWS error formats moto does not produce here (a loopback server speaking them)', () => {
  let server: http.Server;
  let url: string;
  let port: number;
  let answer: { status: number; type: string; body: string; headers?: Record<string, string> };
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(answer.status, { 'content-type': answer.type, 'x-amzn-requestid': 'req-1', ...answer.headers });
        res.end(answer.body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    url = `http://127.0.0.1:${port}`;
  });
  afterAll(() => new Promise((r) => server.close(() => r(undefined))));
  const s3Error = (status: number, code: string, message: string) => ({
    status,
    type: 'application/xml',
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>req-1</RequestId></Error>`,
  });
  const getObject = () =>
    tool('get_object', 'read', () => s3(url).send(new GetObjectCommand({ Bucket: 'b', Key: 'k' })));

  test.each([
    ['AccessDenied', 403, { class: 'authorization', reason: 'forbidden', action: 'stop' }],
    ['InvalidAccessKeyId', 403, { class: 'authentication', reason: 'credential_missing', action: 'reauth' }],
    ['SignatureDoesNotMatch', 403, { class: 'authentication', reason: 'credential_missing', action: 'reauth' }],
    ['SlowDown', 503, { class: 'transient', reason: 'rate_limited', action: 'retry' }],
  ])('S3 %s (HTTP %i, XML) → %o', async (code, status, expected) => {
    answer = s3Error(status, code, `The request was refused for key ${credentials.accessKeyId}.`);
    const r = await invoke(getObject(), {}, { label: ['aws-sdk s3', code] });
    expect(summary(r)).toEqual({ ...expected, retryAfterMs: undefined, phase: 'dispatch' });
    expectClean(r.failure.publicMessage, [port, ...LEAKS]);
  });

  test('DynamoDB ThrottlingException (JSON) with Retry-After → transient/rate_limited → retry after 2000 ms', async () => {
    answer = {
      status: 400,
      type: 'application/x-amz-json-1.0',
      body: JSON.stringify({
        __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException',
        message: 'Rate of requests exceeds the allowed throughput.',
      }),
      headers: { 'retry-after': '2' },
    };
    const r = await invoke(
      tool('get_item', 'read', () => ddb(url).send(new GetItemCommand({ TableName: 't', Key: { id: { S: 'a' } } }))),
      {},
      { label: ['aws-sdk dynamodb', 'ThrottlingException'] },
    );
    expect(summary(r)).toEqual({
      class: 'transient',
      reason: 'rate_limited',
      action: 'retry',
      retryAfterMs: 2000,
      phase: 'dispatch',
    });
  });

  test('an XML 503 where DynamoDB expects JSON: the SyntaxError still carries $metadata → transient/unavailable → retry', async () => {
    answer = { status: 503, type: 'text/xml', body: '<html><body>Service Unavailable</body></html>' };
    const r = await invoke(
      tool('get_item', 'read', () => ddb(url).send(new GetItemCommand({ TableName: 't', Key: { id: { S: 'a' } } }))),
      {},
      { label: ['aws-sdk dynamodb', 'SyntaxError with $metadata (503)'] },
    );
    expect(r.thrown).toMatchObject({ name: 'SyntaxError', $metadata: { httpStatusCode: 503 } });
    expect(summary(r)).toEqual({
      class: 'transient',
      reason: 'unavailable',
      action: 'retry',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expect(r.failure.status).toBe(503);
  });
});
