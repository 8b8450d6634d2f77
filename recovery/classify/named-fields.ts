/**
 * A 400 or 422 whose plain message names a field of the tool's input schema ("item_id must be positive") is about
 * that field: the model can repair it, so it becomes `invalid_arguments` with the field as an issue
 * (docs/DESIGN.md, "Routes": repair). A field is named by its exact key, case-insensitively, in its snake_case,
 * camelCase or kebab-case spelling, on word boundaries; a message that names no field is left as it was.
 * Pure: no I/O.
 */
import type { FieldIssue } from '../failure';
import { toIssue } from './body';

/** Longest message read, in characters. */
const MAX_MESSAGE_CHARS = 1_000;
/** Most fields an input schema contributes. */
const MAX_FIELDS = 200;

/** `itemId` / `item_id` / `item-id` / `ItemID` → `itemid`, the form every spelling shares. */
function squash(word: string): string {
  return word.toLowerCase().replace(/[_-]/g, '');
}

/** The spellings of a key as words a message may use: the key, and its snake/camel/kebab forms. */
function spellings(key: string): string[] {
  const snake = key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  const camel = snake.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
  return [...new Set([key.toLowerCase(), snake, camel.toLowerCase(), snake.replace(/_/g, '-')])];
}

/** The input fields `message` names, in schema order (at most `max`). */
export function fieldsNamedIn(message: string | undefined, fields: readonly string[], max = 5): string[] {
  if (message === undefined || message === '' || fields.length === 0) return [];
  const words = new Set(
    (message.slice(0, MAX_MESSAGE_CHARS).match(/[A-Za-z][A-Za-z0-9_-]*/g) ?? []).map((w) => w.toLowerCase()),
  );
  const squashed = new Set([...words].map(squash));
  const named: string[] = [];
  for (const key of fields.slice(0, MAX_FIELDS)) {
    if (key.length < 2) continue;
    const hit = spellings(key).some((s) => words.has(s)) || (/[_A-Z-]/.test(key) && squashed.has(squash(key)));
    if (hit) named.push(key);
    if (named.length >= max) break;
  }
  return named;
}

/** Field issues for the fields `message` names (the message is what the field must satisfy). */
export function issuesNamedIn(message: string | undefined, fields: readonly string[]): FieldIssue[] {
  return fieldsNamedIn(message, fields).map((key) => toIssue([key], message, undefined, false));
}
