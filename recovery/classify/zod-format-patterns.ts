/**
 * The string formats behind zod's own patterns. zod 4's `z.toJSONSchema` writes a format check as `format` plus
 * the format's regex as `pattern`; with a second regex on the same string (`z.email().regex(/corp\.com$/)`) it
 * writes both regexes under `allOf` and, up to zod 4.1, drops `format` (zod `json-schema-processors`,
 * `stringProcessor`). This table names such a pattern again ("email address", not the regex), so the words say
 * "email address matching corp\.com$".
 *
 * Built once, on first use, from the JSON Schema zod itself emits for each format (so it follows the zod in use).
 * Pure: no I/O.
 */
import type { z } from 'zod';
import { zod } from '../zod-runtime';

/** JSON Schema `format` → the zod schema whose JSON Schema carries that format's pattern. */
const FORMAT_SCHEMAS: Readonly<Record<string, (zz: typeof z) => z.ZodType>> = Object.freeze({
  email: (zz) => zz.email(),
  uuid: (zz) => zz.uuid(),
  guid: (zz) => zz.guid(),
  date: (zz) => zz.iso.date(),
  'date-time': (zz) => zz.iso.datetime(),
  time: (zz) => zz.iso.time(),
  duration: (zz) => zz.iso.duration(),
  ipv4: (zz) => zz.ipv4(),
  ipv6: (zz) => zz.ipv6(),
  cidrv4: (zz) => zz.cidrv4(),
  cidrv6: (zz) => zz.cidrv6(),
  base64: (zz) => zz.base64(),
  base64url: (zz) => zz.base64url(),
  emoji: (zz) => zz.emoji(),
  nanoid: (zz) => zz.nanoid(),
  cuid: (zz) => zz.cuid(),
  cuid2: (zz) => zz.cuid2(),
  ulid: (zz) => zz.ulid(),
  xid: (zz) => zz.xid(),
  ksuid: (zz) => zz.ksuid(),
  e164: (zz) => zz.e164(),
  lowercase: (zz) => zz.string().lowercase(),
  uppercase: (zz) => zz.string().uppercase(),
});

let byPattern: ReadonlyMap<string, string> | undefined;

function build(): ReadonlyMap<string, string> {
  const map = new Map<string, string>();
  const zz = zod();
  for (const [format, schemaOf] of Object.entries(FORMAT_SCHEMAS)) {
    try {
      const pattern = (zz.toJSONSchema(schemaOf(zz)) as { pattern?: unknown }).pattern;
      if (typeof pattern === 'string' && !map.has(pattern)) map.set(pattern, format);
    } catch {
      // A format this zod cannot build or write: it has no pattern to recognise.
    }
  }
  return map;
}

/** The JSON Schema `format` whose zod pattern is `source` (`email` for zod's email regex), if any. */
export function formatOfPattern(source: string): string | undefined {
  byPattern ??= build();
  return byPattern.get(source);
}
