/** What a reviewer reads of a lookup that threw (activities/lookup-operation.ts): its HTTP status, nothing else. */
import { HttpOutcomeError } from '../../activities/http';
import { failedLookupDetail } from '../../activities/lookup-operation';

const http = (status: number) =>
  new HttpOutcomeError({ kind: 'http', status, headers: { authorization: 'Bearer sk_live_x' }, body: 'at 10.0.0.7' });

test.each([
  [
    http(404),
    'The lookup itself failed: its request was answered HTTP 404. A lookup that reads "not found" as not applied requests it with accept: [404] and returns { state: "not_applied" }.',
  ],
  [http(503), 'The lookup itself failed: its request was answered HTTP 503.'],
  [
    new Error('lookup wrapper', { cause: { status: 500, body: 'db at 10.0.0.7' } }),
    'The lookup itself failed: its request was answered HTTP 500.',
  ],
  [new Error('connect ECONNREFUSED 10.0.0.7:5432'), 'The lookup itself failed.'],
  [null, 'The lookup itself failed.'],
])('%p → the status only', (err, detail) => {
  expect(failedLookupDetail(err)).toBe(detail);
});
