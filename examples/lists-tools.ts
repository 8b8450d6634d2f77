/**
 * Tools on the lists service (examples/lists-service.ts) with postconditions (`verify`): adding an item that is
 * already in the list, creating a note whose title is taken by the same note, and updating a note whose version
 * moved on are checked against the real state instead of being replanned. `add_list_item_unverified` is the same
 * write without a postcondition (for comparison in tests).
 */
import { z } from 'zod';
import { defineTool, type VerifyResult } from '../activities/define-tool';
import { HttpOutcomeError } from '../activities/http';
import type { ToolContext } from '../activities/tool-context';

const Item = z.object({ listId: z.number().int(), itemId: z.number().int() });
const Note = z.object({ noteId: z.number().int(), title: z.string(), body: z.string(), version: z.number().int() });

async function getJson(ctx: ToolContext, url: string): Promise<unknown | undefined> {
  try {
    return (await ctx.http.request({ url, timeoutMs: 2_000 })).body;
  } catch (err) {
    if (HttpOutcomeError.is(err) && err.outcome.status === 404) return undefined;
    throw err;
  }
}

export function listsTools(baseUrl: string) {
  const addInput = z.object({ listId: z.number().int().positive(), itemId: z.number().int() }).strict();
  const add = (name: string, withVerify: boolean) =>
    defineTool({
      name,
      description: 'Adds an item to a shopping list.',
      input: addInput,
      output: Item,
      effect: 'write',
      async execute(args, ctx) {
        return (await ctx.http.request({ method: 'POST', url: `${baseUrl}/lists/${args.listId}/items`, json: args }))
          .body as never;
      },
      ...(withVerify
        ? {
            async verify(args: z.output<typeof addInput>, ctx: ToolContext): Promise<VerifyResult> {
              const list = (await getJson(ctx, `${baseUrl}/lists/${args.listId}/items`)) as { items: number[] };
              return { verdict: list.items.includes(args.itemId) ? 'holds' : 'does_not_hold', state: list };
            },
          }
        : {}),
    });

  const createNoteInput = z.object({ title: z.string().min(1), body: z.string() }).strict();
  const createNote = defineTool({
    name: 'create_note',
    description: 'Creates a note with a unique title.',
    input: createNoteInput,
    output: Note,
    effect: 'write',
    async execute(args, ctx) {
      return (await ctx.http.request({ method: 'POST', url: `${baseUrl}/notes`, json: args })).body as never;
    },
    // The goal holds when a note with this title has this body; another body under the title is a real conflict.
    async verify(args, ctx) {
      const note = (await getJson(ctx, `${baseUrl}/notes?title=${encodeURIComponent(args.title)}`)) as
        | z.output<typeof Note>
        | undefined;
      if (!note) return 'does_not_hold';
      return { verdict: note.body === args.body ? 'holds' : 'does_not_hold', state: note };
    },
  });

  const updateNote = defineTool({
    name: 'update_note',
    description: 'Replaces the body of a note at a known version (optimistic concurrency).',
    input: z.object({ noteId: z.number().int().positive(), body: z.string(), version: z.number().int() }).strict(),
    output: Note,
    effect: 'write',
    async execute(args, ctx) {
      return (await ctx.http.request({ method: 'PUT', url: `${baseUrl}/notes/${args.noteId}`, json: args }))
        .body as never;
    },
    async verify(args, ctx) {
      const note = (await getJson(ctx, `${baseUrl}/notes/${args.noteId}`)) as z.output<typeof Note> | undefined;
      if (!note) return 'unknown';
      return { verdict: note.body === args.body ? 'holds' : 'does_not_hold', state: note };
    },
  });

  const addListItem = add('add_list_item', true);
  const addListItemUnverified = add('add_list_item_unverified', false);
  return { addListItem, addListItemUnverified, createNote, updateNote, all: [addListItem, createNote, updateNote] };
}
