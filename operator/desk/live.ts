/**
 * The page's live feed: server-sent events (HTML Living Standard, "Server-sent events"). Once at start, and every
 * `pollMs` while a page listens (at least twice the last list's time apart, so a slow list does not crowd out
 * decisions), the desk lists the waiting runs (views.ts `listing`: visibility only, no query) and sends
 * - `snapshot` (the waiting runs, with the server's clock) when the list changed, and at least every 15 s;
 * - `decided` (`{ workflowId }`) when this desk decided on a run: a page showing it reads its details again;
 * - `trouble` (`{ message }`) when Temporal could not be read; the page shows it beside its connection state.
 * A comment line every tick lets the browser notice a dead connection; `retry: 2000` sets its reconnect delay (ms).
 * A stream ends with its session: at logout (`endSession`) and expiry. One reader for every page. Node side.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Client } from '@temporalio/client';
import { briefly, SECURITY_HEADERS } from './http';
import type { Session } from './sessions';
import { listing, type Listing } from './views';

/** A snapshot is sent again at least this often, in ms, even unchanged. */
const RESEND_MS = 15_000;

export class LiveFeed {
  /** Each open stream → its session's id. */
  private readonly pages = new Map<ServerResponse, string>();
  private timer: NodeJS.Timeout | undefined;
  /** The read under way, which `close` waits for (a call cut by a closed connection would retry on it). */
  private ticking: Promise<void> = Promise.resolve();
  private last: { body: string; sentAtMs: number; frame: string } | undefined;
  private closed = false;

  constructor(
    private readonly client: Client,
    private readonly pollMs: number,
  ) {
    this.schedule(0);
  }

  /** Answers `req` with the event stream; it ends when the page goes, the session ends or the feed closes. */
  subscribe(req: IncomingMessage, res: ServerResponse, session: Session): void {
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      connection: 'keep-alive',
      // nginx buffers proxied answers unless told not to (nginx docs, "X-Accel-Buffering").
      'x-accel-buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    if (this.last) res.write(this.last.frame);
    this.pages.set(res, session.id);
    const expiry = setTimeout(() => res.end(), Math.max(0, session.expiresAtMs - Date.now()));
    req.on('close', () => clearTimeout(expiry) ?? this.pages.delete(res));
    if (this.timer === undefined) this.schedule(0);
  }

  /** This desk decided on `workflowId`: pages are told at once (those showing it read it again). */
  decided(workflowId: string): void {
    this.broadcast(`event: decided\ndata: ${JSON.stringify({ workflowId })}\n\n`);
  }

  /** Ends the streams of a session (a logout). */
  endSession(id: string): void {
    for (const [res, session] of this.pages) if (session === id) res.end();
  }

  /** Ends every stream and stops reading. */
  close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    for (const res of this.pages.keys()) res.end();
    this.pages.clear();
    return this.ticking;
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => (this.ticking = this.tick()), delayMs);
  }

  private async tick(): Promise<void> {
    if (this.closed) return;
    if (this.pages.size === 0 && this.last) {
      this.timer = undefined;
      return;
    }
    const t0 = Date.now();
    try {
      this.publish(await listing(this.client));
    } catch (err) {
      this.broadcast(`event: trouble\ndata: ${JSON.stringify({ message: briefly(err) })}\n\n`);
    }
    if (!this.closed) this.schedule(Math.max(this.pollMs, 2 * (Date.now() - t0)));
  }

  private publish(snap: Listing): void {
    const body = JSON.stringify({ approvals: snap.approvals, reviews: snap.reviews });
    const nowMs = Date.now();
    if (this.last && this.last.body === body && nowMs - this.last.sentAtMs < RESEND_MS) {
      this.broadcast(': tick\n\n');
      return;
    }
    const frame = `event: snapshot\ndata: ${JSON.stringify(snap)}\n\n`;
    this.last = { body, sentAtMs: nowMs, frame };
    this.broadcast(frame);
  }

  private broadcast(text: string): void {
    for (const res of this.pages.keys()) res.write(text);
  }
}
