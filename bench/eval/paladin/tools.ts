/**
 * The tools PALADIN's keys need beyond the world's records (bench/eval/tools.ts): the same record read behind
 * gaxios, behind a credential whose token endpoint can time out, and behind a 403 a person can lift.
 */
import { request } from 'gaxios';
import { z } from 'zod';
import { defineTool, type AnyTool } from '../../../activities/define-tool';

/** The credential id of `get_record_sso` (its provider is `flakyProvider`, bench/eval/credential-tools.ts). */
export const PALADIN_SSO_CREDENTIAL = 'paladin-sso';

const RecordShape = z.object({
  recordId: z.string(),
  title: z.string(),
  owner: z.string().optional(),
  updatedAt: z.string().optional(),
});
const Args = z.object({ recordId: z.string().regex(/^R-\d+$/) }).strict();
const timeouts = { startToCloseMs: 5_000 };

export function paladinTools(o: { worldUrl: string }): AnyTool[] {
  const recordUrl = (id: string) => `${o.worldUrl}/records/${encodeURIComponent(id)}`;
  return [
    defineTool({
      name: 'get_record_gaxios',
      description: 'Reads a record through the Google-style API client.',
      input: Args,
      output: RecordShape,
      effect: 'read',
      timeouts,
      async execute(args) {
        return (await request({ url: recordUrl(args.recordId), retry: false })).data as never;
      },
    }),
    defineTool({
      name: 'get_record_sso',
      description: 'Reads a record with the single-sign-on token.',
      input: Args,
      output: RecordShape,
      effect: 'read',
      credential: PALADIN_SSO_CREDENTIAL,
      timeouts,
      async execute(args, ctx) {
        return (await ctx.http.request({ url: recordUrl(args.recordId), timeoutMs: 2_000 })).body as never;
      },
    }),
    defineTool({
      name: 'get_record_restricted',
      description: 'Reads a restricted record; a person may approve access.',
      input: Args,
      output: RecordShape,
      effect: 'read',
      approvalCanLift: true,
      timeouts,
      async execute(args, ctx) {
        const headers: Record<string, string> = ctx.approval ? { 'x-approved-by': ctx.approval.by } : {};
        return (await ctx.http.request({ url: recordUrl(args.recordId), headers, timeoutMs: 2_000 })).body as never;
      },
    }),
  ];
}
