/**
 * The credential broker: the trusted component, invisible to the model, that holds tokens and refreshes them
 * (docs/DESIGN.md, "Routes": Re-auth and approval). Token material never leaves the worker; workflow code sees only
 * a credential version, a number that grows with each refresh.
 *
 * Refresh is single-flight per credential: concurrent 401s cause one refresh, and every caller waits on it, so a
 * rotating refresh token is never spent twice. A refresh that fails (e.g. `invalid_grant`) marks the
 * credential dead until `reauthorize()`: no loop against a dead refresh token. A provider that fails in a way time
 * may cure (a timeout, a refused connection, a 503 or 429 thrown with its status: `transient` by the core's
 * classifier) does not: every caller of that flight gets `CredentialUnavailable`, and the next call tries again.
 */
import { classify, type CallContext } from '../recovery/classify';
import { FailureClass, type ToolFailure } from '../recovery/failure';
import { RecoveryError } from '../recovery/recovery-error';

/**
 * Supplies one credential: its first token, and a new one when a call was refused with 401. Throw
 * `CredentialRefreshFailed` (or an `invalid_grant` answer) when a person must re-authorise; anything else
 * thrown is read as transient.
 */
export interface CredentialProvider {
  /** The first access token. */
  initial(): Promise<{ token: string }>;
  /**
   * A new access token, spending (and rotating) the refresh material the provider holds.
   * Throw to say the refresh is impossible (e.g. `invalid_grant`): a human must re-authorise.
   *
   * Shared refresh (`RecoveryPlugin({ credentialRefresh: { shared: true, key } })`): the refresh may run on any
   * worker, so rotating refresh material must travel with the token. Return it as `state`; the next refresh, on
   * whichever worker, receives it as `previous.state` (sealed in between, never in plain history). Without a
   * `previous` (the first refresh, or local mode) use the material you hold.
   */
  refresh(previous?: { state?: string }): Promise<{ token: string; state?: string }>;
}

/** The credential cannot be refreshed; a human must re-authorise (`reauthorize`). */
export class CredentialRefreshFailed extends RecoveryError<'credential_refresh_failed'> {
  override readonly name = 'CredentialRefreshFailed';
  static override readonly codes: readonly string[] = ['credential_refresh_failed'];
  constructor(
    readonly credential: string,
    cause: unknown,
  ) {
    super('credential_refresh_failed', `credential ${credential} could not be refreshed`, { cause });
  }
}

/**
 * The provider failed for now (timeout, network, throttled): the credential is not dead. `failure` is the core's
 * classification of the provider's error (class `transient`; its reason and `retryAfterMs`).
 */
export class CredentialUnavailable extends RecoveryError<'credential_unavailable'> {
  override readonly name = 'CredentialUnavailable';
  static override readonly codes: readonly string[] = ['credential_unavailable'];
  constructor(
    readonly credential: string,
    readonly failure: ToolFailure,
    cause: unknown,
  ) {
    super('credential_unavailable', `credential ${credential} could not be obtained for now (${failure.reason})`, {
      cause,
    });
  }
}

/** The provider's error as the core classifies it: a token fetch is a read, nothing of the tool's was sent. */
export function classifyProviderError(id: string, err: unknown): ToolFailure {
  const ctx: CallContext = {
    tool: 'credential-provider',
    callId: `credential:${id}`,
    effect: 'read',
    deduplicates: false,
    approvalCanLift: false,
    nowMs: Date.now(),
    diagnosticRef: `credential:${id}`,
  };
  return classify({ kind: 'thrown', error: err }, ctx);
}

/** No provider is registered under that id. */
export class UnknownCredential extends RecoveryError<'unknown_credential'> {
  override readonly name = 'UnknownCredential';
  static override readonly codes: readonly string[] = ['unknown_credential'];
  constructor(readonly credential: string) {
    super('unknown_credential', `no credential provider named ${JSON.stringify(credential)}`);
  }
}

/** A credential's state in the broker: provider, current token and version, the refresh in flight. */
interface Slot {
  provider: CredentialProvider;
  token: string | undefined;
  version: number;
  inflight: Promise<void> | undefined;
  dead: CredentialRefreshFailed | undefined;
  refreshes: number;
}

/**
 * A refresh through the cluster-wide entity (activities/shared-credentials.ts): the new token and its version, or
 * undefined when the shared state cannot be reached (the broker then refreshes locally).
 */
export type SharedRefresh = (
  id: string,
  staleVersion: number,
) => Promise<{ token: string; version: number } | undefined>;

/**
 * Hands tools their credentials by id and refreshes them single-flight: one refresh per credential at a time in
 * a worker (or in the namespace, in shared mode). A credential whose refresh was refused for good is dead until
 * `reauthorize`.
 */
export class CredentialBroker {
  private readonly slots = new Map<string, Slot>();
  private sharedRefresh: SharedRefresh | undefined;

  constructor(providers: Record<string, CredentialProvider> = {}) {
    for (const [id, provider] of Object.entries(providers)) this.register(id, provider);
  }

  /** Refreshes go through the shared entity from now on (set by the plugin in shared mode). */
  shareRefreshes(refresh: SharedRefresh): void {
    this.sharedRefresh = refresh;
  }

  /** The provider registered under `id`. @throws UnknownCredential */
  providerOf(id: string): CredentialProvider {
    return this.slot(id).provider;
  }

  /** Registers (or replaces) the provider of credential `id`; its token is fetched on first use. */
  register(id: string, provider: CredentialProvider): void {
    this.slots.set(id, { provider, token: undefined, version: 0, inflight: undefined, dead: undefined, refreshes: 0 });
  }

  /**
   * The current token and its version (1 after the first acquisition). With `atLeast` (the version a call replays
   * with after a refresh, maybe on another worker) and a shared refresh, a worker holding an older version first
   * adopts the cluster's newest: the entity answers it without a refresh, since it is newer than this one's.
   * @throws UnknownCredential; CredentialRefreshFailed while the credential is dead; CredentialUnavailable when
   *   the provider failed for now (the credential stays alive).
   */
  async current(id: string, atLeast?: number): Promise<{ token: string; version: number }> {
    const slot = this.slot(id);
    if (slot.dead) throw slot.dead;
    if (slot.inflight) await slot.inflight;
    if (slot.token === undefined) {
      await this.singleFlight(slot, id, async () => ({ token: (await slot.provider.initial()).token }));
    }
    if (slot.dead) throw slot.dead;
    if (this.sharedRefresh && atLeast !== undefined && slot.version < atLeast) await this.refresh(id, slot.version);
    return { token: slot.token as string, version: slot.version };
  }

  /**
   * Refreshes the credential unless a newer version than `staleVersion` already exists (another caller refreshed
   * it), and returns the version to replay with. Single-flight: concurrent callers share one refresh.
   * @throws UnknownCredential; CredentialRefreshFailed when the provider's refresh fails (the credential is then
   *   dead); CredentialUnavailable when it failed for now (a timeout: the credential stays alive).
   */
  async refresh(id: string, staleVersion: number): Promise<number> {
    const slot = this.slot(id);
    if (slot.dead) throw slot.dead;
    if (slot.inflight) await slot.inflight;
    if (slot.dead) throw slot.dead;
    if (slot.version > staleVersion) return slot.version;
    const local = async () => ({ token: (await slot.provider.refresh()).token });
    const shared = this.sharedRefresh;
    await this.singleFlight(slot, id, shared ? async () => (await shared(id, slot.version)) ?? local() : local);
    if (slot.dead) throw slot.dead;
    return slot.version;
  }

  /** Replaces a dead credential's provider after a human re-authorised; the version keeps growing. */
  reauthorize(id: string, provider: CredentialProvider): void {
    const slot = this.slot(id);
    Object.assign(slot, { provider, token: undefined, dead: undefined, inflight: undefined });
  }

  /** How many refreshes (not initial acquisitions) ran for a credential. */
  refreshCount(id: string): number {
    return this.slot(id).refreshes;
  }

  private slot(id: string): Slot {
    const slot = this.slots.get(id);
    if (!slot) throw new UnknownCredential(id);
    return slot;
  }

  /** `obtain` gives the token and, from the shared entity, its cluster-wide version (else the next local one). */
  private singleFlight(
    slot: Slot,
    id: string,
    obtain: () => Promise<{ token: string; version?: number }>,
  ): Promise<void> {
    if (slot.inflight) return slot.inflight;
    const isRefresh = slot.token !== undefined;
    slot.inflight = (async () => {
      try {
        const { token, version } = await obtain();
        slot.token = token;
        slot.version = version ?? slot.version + 1;
        if (isRefresh) slot.refreshes += 1;
      } catch (err) {
        if (err instanceof CredentialUnavailable) throw err;
        if (err instanceof CredentialRefreshFailed) {
          slot.dead = err;
          return;
        }
        const failure = classifyProviderError(id, err);
        if (failure.class === FailureClass.TRANSIENT) throw new CredentialUnavailable(id, failure, err);
        slot.dead = new CredentialRefreshFailed(id, err);
      } finally {
        slot.inflight = undefined;
      }
    })();
    return slot.inflight;
  }
}
