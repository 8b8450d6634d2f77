/**
 * Tools with a credential: one OAuth loopback (examples/oauth-service.ts) per slot, so that concurrent runs never
 * share a token — each run that needs one gets its own slot, tool (`get_profile_<slot>`) and credential id
 * (`crm-<slot>`). The provider speaks the refresh_token grant (RFC 6749 §6) with rotation.
 */
import { z } from 'zod';
import type { CredentialProvider } from '../../activities/credentials';
import { defineTool, type AnyTool } from '../../activities/define-tool';
import { oauthRefreshProvider, startOAuthService, type OAuthService } from '../../examples/oauth-service';

export interface CredentialSlot {
  /** `s<n>` */
  slot: string;
  tool: string;
  credential: string;
  oauth: OAuthService;
  provider: CredentialProvider;
}

export const Profile = z.object({ name: z.string(), plan: z.string() });

/** Starts `count` OAuth services and returns a slot per service. */
export async function startCredentialSlots(count: number): Promise<CredentialSlot[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const oauth = await startOAuthService({ accessTokenTtlMs: 3_600_000 });
      const slot = `s${i}`;
      return {
        slot,
        tool: `get_profile_${slot}`,
        credential: `crm-${slot}`,
        oauth,
        provider: oauthRefreshProvider(`${oauth.url}/token`, oauth.initialRefreshToken),
      };
    }),
  );
}

/** The profile tool of each slot. */
export function slotTools(slots: readonly CredentialSlot[]): AnyTool[] {
  return slots.map((s) =>
    defineTool({
      name: s.tool,
      description: "Reads the signed-in customer's CRM profile.",
      input: z.object({}).strict(),
      output: Profile,
      effect: 'read',
      credential: s.credential,
      timeouts: { startToCloseMs: 5_000 },
      async execute(_args, ctx) {
        return (await ctx.http.request({ url: `${s.oauth.url}/profile`, timeoutMs: 2_000 })).body as never;
      },
    }),
  );
}

/**
 * A provider whose first `times` token requests time out (a `TimeoutError` from `AbortSignal.timeout`, as a token
 * endpoint that does not answer in time), then hands out `token`.
 */
export function flakyProvider(times: number, token = 'sso-token'): CredentialProvider {
  let left = times;
  const obtain = async () => {
    if (left > 0) {
      left -= 1;
      await new Promise((_, fail) => {
        const signal = AbortSignal.timeout(50);
        signal.addEventListener('abort', () => fail(signal.reason));
      });
    }
    return { token };
  };
  return { initial: obtain, refresh: obtain };
}
