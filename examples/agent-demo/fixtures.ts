/**
 * The services the agent demo runs against, all real and all on this machine: the support service (scripted HTTP),
 * the refund/e-mail ledger (SQLite), the calendar (SQLite), and `@modelcontextprotocol/server-filesystem` on a
 * temporary folder. `arrange` arms a scenario's faults; `counts` reads what the services saw, so a scenario's
 * expectations are checked against their own logs and rows, never against what the workflow says about itself.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AnyTool } from '../../activities/define-tool';
import { startCalendarService, type CalendarRoute, type CalendarService } from '../calendar-service';
import { calendarTools } from '../calendar-tools';
import { startLedgerService, type LedgerService } from '../ledger-service';
import { ledgerTools } from '../ledger-tools';
import { startListsService, type ListsService } from '../lists-service';
import { listsTools } from '../lists-tools';
import { filesystemTools, type FilesystemTools } from '../mcp-filesystem';
import { startScriptedService, type Script, type ScriptedService } from '../scripted-service';
import { supportTools } from '../support-tools';
import type { AgentScenario, RowCounter } from './scenario';

export interface DemoFixtures {
  service: ScriptedService;
  ledger: LedgerService;
  calendar: CalendarService;
  lists: ListsService;
  fs: FilesystemTools;
  /** The folder the filesystem server may read (`{{files}}`) and one it may not (`{{outside}}`). */
  folders: { files: string; outside: string };
  /** Every demo tool: support, calendar, ledger and the filesystem server's. */
  tools: AnyTool[];
  /** Arms the scenario's faults and writes its files; resets the support service and the calendar. */
  arrange(scenario: AgentScenario): void;
  /** Request and row counters now, for the keys a scenario's `expect` names. */
  counts(scenario: AgentScenario): Record<string, number>;
  close(): Promise<void>;
}

/** Starts every demo service. @throws when a service cannot start (the ones already started are stopped). */
export async function startDemoFixtures(): Promise<DemoFixtures> {
  const dir = mkdtempSync(join(tmpdir(), 'recovery-router-demo-'));
  const folders = { files: join(dir, 'files'), outside: join(dir, 'outside') };
  mkdirSync(folders.files);
  mkdirSync(folders.outside);
  writeFileSync(join(folders.outside, 'payroll.txt'), 'not for the agent\n');
  const closers: (() => Promise<void>)[] = [async () => rmSync(dir, { recursive: true, force: true })];
  const close = async () => {
    for (const c of closers.reverse()) await c().catch(() => undefined);
  };
  try {
    const service = await startScriptedService({});
    closers.push(() => service.close());
    const ledger = await startLedgerService();
    closers.push(() => ledger.close());
    const calendar = await startCalendarService();
    closers.push(() => calendar.close());
    const lists = await startListsService();
    closers.push(() => lists.close());
    const fs = await filesystemTools([folders.files], { stderr: 'ignore' });
    closers.push(() => fs.close());
    const support = supportTools(service.url);
    const tools = [
      support.checkInventory,
      support.createInvoice,
      ...calendarTools(calendar.url).all,
      ...ledgerTools(ledger.url).all,
      ...listsTools(lists.url).all,
      ...fs.tools,
    ];
    return {
      service,
      ledger,
      calendar,
      lists,
      fs,
      folders,
      tools,
      arrange(scenario) {
        service.reset((scenario.arrange.service ?? {}) as Script);
        calendar.reset();
        lists.reset();
        for (const i of scenario.arrange.lists?.items ?? []) {
          lists.db.prepare('INSERT INTO items (list_id, item_id) VALUES (?, ?)').run(i.listId, i.itemId);
        }
        for (const n of scenario.arrange.lists?.notes ?? []) {
          lists.db.prepare('INSERT INTO notes (title, body) VALUES (?, ?)').run(n.title, n.body);
        }
        for (const f of scenario.arrange.ledgerFaults ?? []) ledger.fault(f);
        for (const t of scenario.arrange.calendar?.takeAfterListing ?? []) {
          calendar.takeAfterListing(t.day, t.slot, t.byCustomer);
        }
        for (const [path, text] of Object.entries(scenario.arrange.files ?? {})) {
          const full = join(folders.files, path);
          mkdirSync(dirname(full), { recursive: true });
          writeFileSync(full, text);
        }
      },
      counts(scenario) {
        const out: Record<string, number> = {};
        for (const key of Object.keys(scenario.expect.hits ?? {})) {
          const [where, route] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
          out[key] =
            where === 'service'
              ? service.hits(route)
              : where === 'ledger'
                ? ledger.hits(route)
                : where === 'lists'
                  ? lists.hits(route)
                  : calendar.hits(route as CalendarRoute);
        }
        for (const key of Object.keys(scenario.expect.rows ?? {}) as RowCounter[]) {
          out[key] =
            key === 'calendar:bookings'
              ? calendar.rows()
              : key === 'lists:items' || key === 'lists:notes'
                ? lists.rows(key === 'lists:items' ? 'items' : 'notes')
                : ledger.rows(key === 'ledger:refunds' ? 'refunds' : 'emails');
        }
        return out;
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
