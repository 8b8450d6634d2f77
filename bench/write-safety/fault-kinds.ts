/**
 * The write-safety matrix's rows: fault kinds, as data. A row says what the payments service does to the first POST
 * of each operation (`PostFault`), what its read path (lookup and verify) does (`ReadFault`), what the `pay` tool does
 * after its POST returned (`ToolQuirk`), and which driver runs it (`Driver`: a worker shut down, a dev server killed,
 * a network partition…). Columns are tool declarations (bench/write-safety/columns.ts). Issue 27 names nine defects;
 * rows-defects.ts holds those, rows-own.ts the kinds the issue does not name (held out: written before any run).
 */
import type { Lifecycle } from './lifecycle';

/** What the payments service does to the first POST of each idempotency key; later POSTs are served normally. */
export type PostFault =
  | { kind: 'none' }
  /** Read the body, hold it `holdMs` ms, then commit and answer (the client has usually given up by then). */
  | { kind: 'hold_commit'; holdMs: number }
  /** Commit, then drop the connection: the answer is lost. */
  | { kind: 'commit_then_drop' }
  /** Drop the connection after the body was read; nothing is committed. */
  | { kind: 'drop_before_commit' }
  /** Drop the connection at once, then commit `commitMs` ms later (an asynchronous job queue behind the API). */
  | { kind: 'drop_then_commit'; commitMs: number }
  /** Commit, then never answer (the socket stays open). */
  | { kind: 'commit_then_hang' }
  /** Commit, send the status line, the headers and half of the body, then stall forever. */
  | { kind: 'commit_then_stall_body' }
  /** A gateway answers `504` after `answerMs` ms while the upstream commits at `commitMs` ms. */
  | { kind: 'gateway_timeout'; answerMs: number; commitMs: number }
  /** Answer `status` with `body` (JSON) without committing; every POST of the key when `every`, else the first. */
  | { kind: 'answer'; status: number; body: unknown; every: boolean }
  /**
   * Commit, then answer `status` with a body made of the payment's JSON text (`AnswerBody`), labelled `contentType`
   * (default `application/json`), with `headers`; `overstate`: a Content-Length twice the body's, then the
   * connection closes.
   */
  | {
      kind: 'commit_then_answer';
      status: number;
      body: AnswerBody;
      contentType?: string;
      headers?: Readonly<Record<string, string>>;
      overstate?: boolean;
    }
  /**
   * Every POST of the key is answered `status` with `Location` → `to` (RFC 9110 §15.4); when `commit`, each POST
   * commits first (a proxy in front of an origin that commits).
   */
  | { kind: 'redirect'; status: number; to: RedirectTarget; commit: boolean }
  /**
   * Commit (when `commit`), then answer `status` with `bytes` bytes of body, sent in 64 KiB chunks: zeros gzip-
   * compressed (`content-encoding: gzip`, a gzip bomb) when `gzip`, else JSON-like text; `bytes: 'endless'`: a
   * chunked body that never ends.
   */
  | { kind: 'big_answer'; status: number; bytes: number | 'endless'; gzip: boolean; commit: boolean }
  /**
   * An asynchronous API: `202 Accepted`, and a job whose first run fails (reads of the key say
   * `{"status":"failed"}`) and which the provider retries itself: it commits `succeedMs` ms later.
   */
  | { kind: 'async_failed_then_succeeded'; succeedMs: number };

/** A 2xx body built from the committed payment's JSON text. */
export type AnswerBody = 'payment' | 'half' | 'corrupt' | 'empty';

/**
 * Where a redirect points: `login` (`/login`, whose GET answers a 200 HTML sign-in page: an expired single sign-on
 * session), `receipt` (`/receipts/<id>`, which answers 404), `self` (the same URL: a loop), `other_host` (another
 * origin, `127.0.0.2` on another port, which commits what it is sent), `other_port` (the same host on another port,
 * the same service as `other_host`), `credentials` (the same origin with `user:password@` and a `#fragment`).
 */
export type RedirectTarget = 'login' | 'receipt' | 'self' | 'other_host' | 'other_port' | 'credentials';

/** What the read path — `GET /payments/by-key/:key` (lookup) and `GET /payments?invoice=` (verify) — does. */
export type ReadFault =
  | { kind: 'none' }
  /** Reads go to a replica that applies each commit `lagMs` ms late. */
  | { kind: 'replica_lag'; lagMs: number }
  /** The first read of each key (or invoice) answers 404 (not found), later reads are served. */
  | { kind: 'not_found_once' }
  /** The first `count` reads of each key hang `hangMs` ms, then answer what was true when they arrived. */
  | { kind: 'slow_first'; hangMs: number; count: number }
  /** Every read answers 503. */
  | { kind: 'down' }
  /** Every read answers `200 text/html` (a proxy's login page). */
  | { kind: 'html_200' }
  /** Every read answers `200` with an empty body. */
  | { kind: 'empty_200' }
  /** A found payment comes back with a `receipt` of `bytes` characters. */
  | { kind: 'huge_200'; bytes: number }
  /**
   * Reads go to a replica restored from a backup taken just before the first commit (better-sqlite3 `backup()`);
   * it catches up with the primary `forMs` ms later.
   */
  | { kind: 'restored_backup'; forMs: number }
  /**
   * Reads of a key are redirected (`302`): to another origin (`other_host`, which answers any GET with a payment of
   * its own) or to `/v2/…` on the same origin (`same_origin`, which serves the read).
   */
  | { kind: 'redirect'; to: 'other_host' | 'same_origin' };

/** What `pay` does after its POST was answered 2xx (the write is committed by then). */
export type ToolQuirk =
  | { kind: 'none' }
  /** Return the payment with a `receipt` string of `bytes` characters. */
  | { kind: 'return_bytes'; bytes: number }
  /** Return the payment with a BigInt in `receipt` (as database clients return bigint columns). */
  | { kind: 'return_bigint' }
  /** Return a payment whose `receipt` refers back to the payment (a cycle). */
  | { kind: 'return_circular' }
  /** Throw a value that is not an Error. */
  | { kind: 'throw'; value: 'null' | 'undefined' | 'string' | 'number' | 'symbol' | 'revoked_proxy' | 'getters' }
  /** Throw an ECONNRESET error whose `cause` chain loops: to itself (`self`) or a → b → a (`pair`). */
  | { kind: 'throw_cause_loop'; loop: 'self' | 'pair' }
  /** Never settle, ignoring the AbortSignal. */
  | { kind: 'hang' }
  /**
   * An asynchronous API's client: after a `202 Accepted`, read the operation by its key once; `failed` → throw
   * (`the payment failed`), `captured` → return it.
   */
  | { kind: 'poll_async' };

/** How a cell is run beyond "start the runs and wait". */
export type Driver =
  | { kind: 'plain' }
  /** `Worker.shutdown()` once the first POST reached the service; a second worker then takes over. */
  | { kind: 'worker_shutdown' }
  /** The cell's own dev server is stopped with `signal` once the first POST arrived, and started again `downMs` ms later. */
  | { kind: 'server_stop'; signal: 'SIGTERM' | 'SIGKILL'; downMs: number }
  /** The worker runs in its own process; SIGKILLed while its first lookup is held at the service; a new one starts. */
  | { kind: 'worker_sigkill_during_lookup' }
  /** The tool reaches the service through a TCP proxy that blackholes every byte once the first POST passed, `healMs` ms. */
  | { kind: 'partition'; healMs: number }
  /** Once a run awaits review, `decisions` concurrent `replay` decisions arrive (half signals, half updates). */
  | { kind: 'review_storm'; decisions: number }
  /** The worker runs in its own process with `slots` activity slots; then SIGTERM and a timed shutdown. */
  | { kind: 'slots'; slots: number };

export interface FaultRow {
  /** Stable id, e.g. `late-commit`. */
  id: string;
  /** One line: what happens. */
  title: string;
  /** A defect of issue 27, a kind of our own, a control that is expected to hold today, or a kind issue 35 names. */
  source: 'defect' | 'own' | 'control' | 'issue-35';
  /** Issue 27's item numbers this row reproduces (1 to 9). */
  defects?: readonly number[];
  /** The issue whose round added the row (rows-wire.ts: 35). @default 27 */
  issue?: number;
  post: PostFault;
  /** @default { kind: 'none' } */
  read?: ReadFault;
  /** @default { kind: 'none' } */
  quirk?: ToolQuirk;
  /** @default { kind: 'plain' } */
  driver?: Driver;
  /** `pay` calls per run, each its own operation (step). @default 1 */
  calls?: number;
  /** Runs started at once. @default 1 */
  runs?: number;
  /** Text planted in the service's answers that must never reach model text or history. */
  secrets?: readonly string[];
  /** The row's own fault is on the read path: columns with neither lookup nor verify show `n/a`. */
  readPath?: boolean;
  /** How long the runs may take to end or to wait visibly for review, in ms. @default 45_000 */
  budgetMs?: number;
  /** `pay`'s `commit` declaration (docs/tools.md, "Lookups"). @default undeclared */
  commit?: { settleMs: number; lookupLagMs: number };
  /** What happens to the run around its write (bench/write-safety/lifecycle.ts); its cell counts per intent. */
  lifecycle?: Lifecycle;
}
