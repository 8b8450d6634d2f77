/**
 * A real loopback service on SQLite (better-sqlite3) for "already done is done": shopping lists and notes that
 * answer the way many services do when the state a write asks for already holds. A fixture of the examples and
 * tests, not of the library.
 *
 * - `POST /lists/:listId/items` `{ itemId }` → `201 { listId, itemId }`; an item already in the list →
 *   `422 {"message":"Item <id> is already in the list."}`; `itemId ≤ 0` → `422 {"message":"item_id must be positive"}`.
 * - `GET /lists/:listId/items` → `200 { listId, items: [itemId…] }`.
 * - `POST /notes` `{ title, body }` → `201 { noteId, title, body, version: 1 }`; a taken title →
 *   `409 {"message":"A note titled \"<title>\" already exists."}`.
 * - `GET /notes?title=T` → `200 <note>` or `404`; `GET /notes/:noteId` → `200 <note>` or `404`.
 * - `PUT /notes/:noteId` `{ body, version }` → `200 <note>` (version + 1); a stale version →
 *   `409 {"message":"version conflict: note <id> is at version <v>"}`.
 * Every request is counted per route; `loseNextResponse()` commits the next write and drops its answer.
 */
import Database from 'better-sqlite3';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Note {
  noteId: number;
  title: string;
  body: string;
  version: number;
}

export interface ListsService {
  url: string;
  db: Database.Database;
  /** Requests received per route pattern (`"POST /lists/:id/items"`, `"GET /notes"`, …). */
  hits(route: string): number;
  /** Rows in `items` or `notes`. */
  rows(table: 'items' | 'notes'): number;
  /** The next write commits, then its connection is dropped without an answer. */
  loseNextResponse(): void;
  /** Empties both tables and the counters. */
  reset(): void;
  close(): Promise<void>;
}

type Reply = [number, unknown];

export async function startListsService(): Promise<ListsService> {
  const db = new Database(':memory:');
  db.exec(`
    CREATE TABLE items (list_id INTEGER NOT NULL, item_id INTEGER NOT NULL, PRIMARY KEY (list_id, item_id));
    CREATE TABLE notes (note_id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL UNIQUE, body TEXT NOT NULL,
      version INTEGER NOT NULL DEFAULT 1);
  `);
  const hits = new Map<string, number>();
  let loseNext = false;
  const noteBy = db.prepare('SELECT note_id AS noteId, title, body, version FROM notes WHERE note_id = ?');
  const noteByTitle = db.prepare('SELECT note_id AS noteId, title, body, version FROM notes WHERE title = ?');

  const addItem = (listId: number, body: Record<string, unknown>): Reply => {
    const itemId = Number(body.itemId);
    if (!Number.isInteger(itemId) || itemId <= 0) return [422, { message: 'item_id must be positive' }];
    try {
      db.prepare('INSERT INTO items (list_id, item_id) VALUES (?, ?)').run(listId, itemId);
      return [201, { listId, itemId }];
    } catch {
      return [422, { message: `Item ${itemId} is already in the list.` }];
    }
  };
  const listItems = (listId: number): Reply => {
    const items = db.prepare('SELECT item_id AS itemId FROM items WHERE list_id = ? ORDER BY item_id').all(listId);
    return [200, { listId, items: (items as { itemId: number }[]).map((i) => i.itemId) }];
  };
  const createNote = (body: Record<string, unknown>): Reply => {
    const title = String(body.title ?? '');
    if (noteByTitle.get(title)) return [409, { message: `A note titled "${title}" already exists.` }];
    const r = db.prepare('INSERT INTO notes (title, body) VALUES (?, ?)').run(title, String(body.body ?? ''));
    return [201, noteBy.get(r.lastInsertRowid)];
  };
  const updateNote = (noteId: number, body: Record<string, unknown>): Reply => {
    const note = noteBy.get(noteId) as Note | undefined;
    if (!note) return [404, { message: `no note ${noteId}` }];
    if (Number(body.version) !== note.version)
      return [409, { message: `version conflict: note ${noteId} is at version ${note.version}` }];
    db.prepare('UPDATE notes SET body = ?, version = version + 1 WHERE note_id = ?').run(String(body.body), noteId);
    return [200, noteBy.get(noteId)];
  };

  const route = (method: string, url: URL, body: Record<string, unknown>): [string, () => Reply] => {
    const items = /^\/lists\/(\d+)\/items$/.exec(url.pathname);
    const note = /^\/notes\/(\d+)$/.exec(url.pathname);
    if (items && method === 'POST') return ['POST /lists/:id/items', () => addItem(Number(items[1]), body)];
    if (items && method === 'GET') return ['GET /lists/:id/items', () => listItems(Number(items[1]))];
    if (url.pathname === '/notes' && method === 'POST') return ['POST /notes', () => createNote(body)];
    if (url.pathname === '/notes' && method === 'GET') {
      const found = noteByTitle.get(url.searchParams.get('title') ?? '');
      return ['GET /notes', () => (found ? [200, found] : [404, { message: 'no such note' }])];
    }
    if (note && method === 'GET') {
      const found = noteBy.get(Number(note[1]));
      return ['GET /notes/:id', () => (found ? [200, found] : [404, { message: 'no such note' }])];
    }
    if (note && method === 'PUT') return ['PUT /notes/:id', () => updateNote(Number(note[1]), body)];
    return [`${method} ${url.pathname}`, () => [404, { message: 'no route' }]];
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://lists');
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      const [name, run] = route(req.method ?? 'GET', url, body);
      hits.set(name, (hits.get(name) ?? 0) + 1);
      const [status, payload] = run();
      if (loseNext && req.method !== 'GET') {
        loseNext = false;
        req.socket.destroy();
        return;
      }
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    db,
    hits: (r) => hits.get(r) ?? 0,
    rows: (table) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n,
    loseNextResponse: () => {
      loseNext = true;
    },
    reset: () => {
      db.exec("DELETE FROM items; DELETE FROM notes; DELETE FROM sqlite_sequence WHERE name = 'notes';");
      hits.clear();
      loseNext = false;
    },
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => {
          db.close();
          done();
        });
      }),
  };
}
