/**
 * Signed approvals: an HMAC-SHA256 (RFC 2104, with SHA-256 per FIPS 180-4) over the exact call an approval is for,
 * keyed with a secret that only the workers and the approval service hold. The signature travels in the decision
 * (and so in history); the key never does. Workers verify it (`verifyApprovalSignature`, constant-time compare);
 * an approval service signs with `signApproval`.
 * Node-side only.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** What an approval signature binds: the run, the call, the tool, its argument digest and the decision. */
export interface ApprovalSigningFields {
  workflowId: string;
  callId: string;
  tool: string;
  /** `PendingApproval.argsDigest`: sha256 hex of the canonical arguments. */
  argsDigest: string;
  approved: boolean;
}

/** The signed text: one field per line, after a version tag, so no field can run into the next. */
export function approvalSigningText(f: ApprovalSigningFields): string {
  return ['recovery-router/approval/v1', f.workflowId, f.callId, f.tool, f.argsDigest, String(f.approved)]
    .map((part) => part.replace(/\n/g, '\\n'))
    .join('\n');
}

/** A string or bytes of at least 32 bytes (RFC 2104 §3: no shorter than the hash output, in UTF-8 for a string). */
export const isApprovalKey = (key: unknown): key is string | Uint8Array =>
  (typeof key === 'string' ? Buffer.byteLength(key, 'utf8') : key instanceof Uint8Array ? key.length : 0) >= 32;

/** A key of at least 32 bytes (`isApprovalKey`), as bytes. @throws RangeError */
export function approvalKeyBytes(key: string | Uint8Array): Buffer {
  if (!isApprovalKey(key)) throw new RangeError('an approval signing key needs at least 32 bytes');
  return typeof key === 'string' ? Buffer.from(key, 'utf8') : Buffer.from(key);
}

/** The hex HMAC-SHA256 of `approvalSigningText(fields)` under `key`. @throws RangeError on a short key */
export function signApproval(key: string | Uint8Array, fields: ApprovalSigningFields): string {
  return createHmac('sha256', approvalKeyBytes(key)).update(approvalSigningText(fields), 'utf8').digest('hex');
}

/** True when `signature` is the HMAC of `fields` under `key`; constant-time in the signature's bytes. */
export function verifyApprovalSignature(
  key: string | Uint8Array,
  fields: ApprovalSigningFields,
  signature: string | undefined,
): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) return false;
  const expected = Buffer.from(signApproval(key, fields), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}
