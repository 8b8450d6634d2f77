/**
 * The `desk` section of `temporal.config.json`: how `recovery-router desk` (operator/desk/) listens and who may
 * decide (docs/approvals.md, "The desk"). Either users with scrypt password hashes, or a trusted reverse proxy that
 * names the operator in a header, or both.
 */
import { z } from 'zod';

/** `$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt, base64>$<hash, base64>` (PHC string format). */
export const SCRYPT_HASH =
  /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

/** An operator's name: what the desk records as `by`. 1 to 200 visible characters, no control characters. */
export const OPERATOR_NAME = /^[^\p{Cc}\s](?:[^\p{Cc}]{0,198}[^\p{Cc}\s])?$/u;

/** `ln=…,r=…,p=…` of a user's hash (what a check costs). */
const scryptParams = (u: { scrypt: string }) => u.scrypt.split('$')[2] ?? '';

export const DeskUserSchema = z
  .object({
    /** The operator's name, recorded as `by` on every decision. */
    name: z.string().regex(OPERATOR_NAME, 'must be 1 to 200 characters, no control characters'),
    /** `recovery-router desk hash-password` prints it. */
    scrypt: z.string().regex(SCRYPT_HASH, 'must be a $scrypt$ln=…,r=…,p=…$salt$hash string (desk hash-password)'),
  })
  .strict();

export const DeskProxySchema = z
  .object({
    /** The request header that names the operator. @default "x-forwarded-user" */
    header: z
      .string()
      .regex(/^[a-z0-9-]{1,64}$/, 'must be a lower-case header name')
      .default('x-forwarded-user'),
    /** Addresses of the proxies whose header is believed (exact IPv4 or IPv6 addresses). */
    trustedProxies: z.array(z.string().min(2).max(45)).min(1),
  })
  .strict();

export const DeskConfigSchema = z
  .object({
    /** The address to listen on. @default "127.0.0.1" (loopback only) */
    host: z.string().min(1).default('127.0.0.1'),
    /** The port. @default 7480 */
    port: z.number().int().min(0).max(65535).default(7480),
    /** Password operators; one set of scrypt parameters for all, so every name's check costs the same. */
    users: z
      .array(DeskUserSchema)
      .default([])
      .refine((users) => new Set(users.map(scryptParams)).size <= 1, {
        error: ({ input }) =>
          `every password hash must have the same scrypt parameters (${(input as Array<z.infer<typeof DeskUserSchema>>).map((u) => `${u.name}: ${scryptParams(u)}`).join('; ')}); hash them again with desk hash-password`,
      }),
    /** Host header values answered (DNS rebinding is refused with 421), and POSTs' origins. @default listen address */
    allowedHosts: z.array(z.string().min(1).max(300)).optional(),
    /** A reverse proxy that authenticates operators and names them in a header. */
    proxy: DeskProxySchema.optional(),
    /** The approval signing key's file, when the workers require signed approvals. */
    signingKeyFile: z.string().min(1).optional(),
    /** How long a session lasts, in ms; its event stream ends then too. @default 28_800_000 (8 h) */
    sessionTtlMs: z.number().int().min(1_000).max(604_800_000).default(28_800_000),
    /** Sessions kept at most (in memory); past it, the oldest ends. @default 10_000 */
    maxSessions: z.number().int().min(16).max(1_000_000).default(10_000),
    /** How often the page's live feed looks for waiting calls and reviews, in ms. @default 2_000 */
    pollMs: z.number().int().min(250).max(60_000).default(2_000),
    /** Serve over HTTPS (e.g. behind a TLS proxy): the session cookie is `__Host-rr_desk`, `Secure`. @default false */
    secureCookies: z.boolean().default(false),
    /** Recent workflows whose decisions the history page shows. @default 50 */
    historyLimit: z.number().int().min(1).max(500).default(50),
  })
  .strict();
export type DeskConfig = z.infer<typeof DeskConfigSchema>;
export type DeskConfigInput = z.input<typeof DeskConfigSchema>;
