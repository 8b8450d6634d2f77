/**
 * The scenarios' tools as teams write them today — an AI SDK `tool({ inputSchema, execute })` and the options of
 * OpenAI Agents' `tool()` — calling the interop service with `fetch`, and the same tools adopted as router tools
 * (`fromAiSdkTool`, `fromAgentsTool`) with what the frameworks have no word for: effect, idempotency, lookup.
 * Worker side. A failed answer is thrown with its status and body (the shape of `http-errors`), so the router
 * classifies it by status; the baselines' activities run the same `execute`.
 */
import { tool } from 'ai';
import { z } from 'zod';
import type { AnyTool, LookupResult } from '../../index';
import { fromAiSdkTool } from '../../ai-sdk';
import { fromAgentsTool } from '../../openai-agents';

/** An HTTP answer that is not 2xx, thrown with the facts a classifier needs. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

async function call(url: string, init: RequestInit = {}): Promise<unknown> {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json' } });
  const body = (await res.json()) as unknown;
  if (!res.ok) throw new HttpStatusError(res.status, body);
  return body;
}

const bookInput = z.object({ slot: z.string().regex(/^\d{2}:\d{2}$/), customerId: z.string().regex(/^cus_/) });
const emailInput = z.object({ to: z.email(), subject: z.string().min(1) });
const BOOK = 'Books a calendar slot (HH:MM) for a customer.';
const EMAIL = 'Sends one e-mail.';

/** The two tools, AI SDK style. `send_email` passes `dedupeKey` when the caller adds one (the router does). */
export function aiSdkStyleTools(baseUrl: string) {
  return {
    book_slot: tool({
      description: BOOK,
      inputSchema: bookInput,
      execute: (input) => call(`${baseUrl}/bookings`, { method: 'POST', body: JSON.stringify(input) }),
    }),
    send_email: tool({
      description: EMAIL,
      inputSchema: emailInput,
      execute: (input) => call(`${baseUrl}/emails`, { method: 'POST', body: JSON.stringify(input) }),
    }),
  };
}

/** The same tools as the options of OpenAI Agents' `tool()`. */
export function agentsStyleTools(baseUrl: string) {
  return {
    book_slot: {
      name: 'book_slot',
      description: BOOK,
      parameters: bookInput,
      execute: (input: z.infer<typeof bookInput>) =>
        call(`${baseUrl}/bookings`, { method: 'POST', body: JSON.stringify(input) }),
    },
    send_email: {
      name: 'send_email',
      description: EMAIL,
      parameters: emailInput,
      execute: (input: z.infer<typeof emailInput>) =>
        call(`${baseUrl}/emails`, { method: 'POST', body: JSON.stringify(input) }),
    },
  };
}

/** `GET /emails?dedupeKey=` as a router lookup: 200 → applied, 404 → not applied. */
function emailLookup(baseUrl: string) {
  return async (operationId: string): Promise<LookupResult<unknown>> => {
    try {
      return { state: 'applied', result: await call(`${baseUrl}/emails?dedupeKey=${encodeURIComponent(operationId)}`) };
    } catch (err) {
      if (err instanceof HttpStatusError && err.status === 404) return { state: 'not_applied' };
      throw err;
    }
  };
}

/** What the frameworks have no word for. The outbox does not deduplicate, so a lost answer is looked up. */
function facts(baseUrl: string) {
  return {
    book_slot: { effect: 'write' as const },
    send_email: {
      effect: 'write' as const,
      idempotency: { carrier: 'field' as const, name: 'dedupeKey', deduplicates: false },
      lookup: emailLookup(baseUrl),
      timeouts: { startToCloseMs: 5_000 },
    },
  };
}

/** The AI SDK tools adopted as router tools. */
export function routerToolsFromAiSdk(baseUrl: string): AnyTool[] {
  const ai = aiSdkStyleTools(baseUrl);
  const f = facts(baseUrl);
  return [
    fromAiSdkTool('book_slot', ai.book_slot, f.book_slot),
    fromAiSdkTool('send_email', ai.send_email, f.send_email),
  ];
}

/** The OpenAI Agents tools adopted as router tools. */
export function routerToolsFromAgents(baseUrl: string): AnyTool[] {
  const ag = agentsStyleTools(baseUrl);
  const f = facts(baseUrl);
  return [fromAgentsTool(ag.book_slot, f.book_slot), fromAgentsTool(ag.send_email, f.send_email)];
}

/** The baselines' activities: each tool's `execute` as a plain Temporal activity. */
export function baselineActivities(baseUrl: string) {
  const ai = aiSdkStyleTools(baseUrl);
  const opts = { toolCallId: 'baseline', messages: [], context: {} };
  return {
    book_slot: (input: z.infer<typeof bookInput>) => ai.book_slot.execute(input, opts) as Promise<unknown>,
    send_email: (input: z.infer<typeof emailInput>) => ai.send_email.execute(input, opts) as Promise<unknown>,
  };
}
