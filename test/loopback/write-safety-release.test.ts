/**
 * The payments service's `releaseHung` (bench/write-safety/payments-service.ts, issue 39): the lifecycle rows hold a
 * committed POST open until the operator's command was answered, then end it as a connection reset: an event, not a
 * 3 s StartToClose racing a CLI start on a loaded machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPaymentsService } from '../../bench/write-safety/payments-service';

const dir = mkdtempSync(join(tmpdir(), 'rr-ws-release-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('commit_then_hang holds the POST until releaseHung, which resets it: one row, the client sees the reset', async () => {
  const s = await startPaymentsService({
    dedupe: false,
    post: { kind: 'commit_then_hang' },
    read: { kind: 'none' },
    tmpDir: dir,
  });
  try {
    const posted = s.nextPost();
    const answer = fetch(`${s.url}/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'k1' },
      body: JSON.stringify({ invoice: 'INV-1', amountCents: 100 }),
    }).then(
      (r) => `status ${r.status}`,
      (err: Error & { cause?: { code?: string } }) => `${err.name}: ${err.cause?.code}`,
    );
    expect(await posted).toBe('k1');
    expect(s.rows()).toBe(1);
    expect(s.releaseHung()).toBe(1);
    expect(await answer).toBe('TypeError: UND_ERR_SOCKET');
    expect(s.releaseHung()).toBe(0);
    expect(s.rows()).toBe(1);
  } finally {
    await s.close();
  }
});
