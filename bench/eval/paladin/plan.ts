/**
 * One PALADIN key as a run: the scripted plan "read the record, save its summary, submit the record", the key's
 * fault injected into the read or the write (keys.ts says which and how), and the oracle end state:
 * - world `recoverable`: the record submitted as it is stored, and exactly one summary row;
 * - world `hand_off`: no summary row, and the run ended without a submission.
 * A run reported submitted whose end state is not the oracle's is a hallucinated success.
 */
import type { RecoveryRecord } from '../../../recovery/records';
import type { CredentialSlot } from '../credential-tools';
import { REACTIONS, hasFields, type EvalEnv, type RunOutcome, type Script } from '../scenario';
import { IO, THROWN, type IoEnv } from './faults';
import { paladinKey, type PaladinKey } from './keys';

export interface PaladinVerdict {
  key: string;
  category: string;
  expectedAction: string;
  /** The action of the first routed failure of the run, or `none`. */
  action: string;
  /** `action` is the expected one. */
  correct: boolean;
  /** The run reached the oracle end state. */
  recovered: boolean;
  /** Reported submitted, but the end state disagrees. */
  hallucinatedSuccess: boolean;
  world: PaladinKey['world'];
  /** Submitted with the oracle's record and summary. */
  goalReached: boolean;
  /** Tool calls the router made (one per call, successes included). */
  toolCalls: number;
  dispatches: number;
  status: string;
  /** The router's action per call (`ok` for a call that never failed). */
  actions: string[];
  /** Why the run ended without a submission, when it did. */
  reason?: string;
}

export interface PaladinRun {
  key: PaladinKey;
  goal: string;
  script: Script;
  arrange(): Promise<void>;
  /** Approves the waiting call, for the key whose route is `request_approval` (the eval acts as the person). */
  approves: boolean;
  judge(o: RunOutcome, records: readonly RecoveryRecord[]): PaladinVerdict;
}

/** The read tool a key's plan calls first. */
function readToolOf(k: PaladinKey, slot: CredentialSlot | undefined): string {
  if (k.injection.kind === 'tool') return k.injection.name;
  if (k.injection.kind === 'gaxios') return 'get_record_gaxios';
  if (k.injection.kind === 'credential') return k.injection.mode === 'expired' ? slot!.tool : 'get_record_sso';
  if (k.key === 'DataError') return 'get_record_version';
  if (k.key === '403') return 'get_record_restricted';
  return 'get_record';
}

/** `"$record"` → the run's record id, anywhere in a JSON value. */
function withRecord<T>(value: T, recordId: string): T {
  return JSON.parse(JSON.stringify(value).replaceAll('$record', recordId)) as T;
}

/** The first routed failure's action (`none` when nothing failed). */
export function firstAction(records: readonly RecoveryRecord[]): string {
  return records.find((r) => r.class !== undefined)?.action ?? 'none';
}

export function paladinRun(
  keyName: string,
  o: { runId: string; index: number; env: EvalEnv; io: IoEnv; random: () => number; slot?: CredentialSlot },
): PaladinRun {
  const k = paladinKey(keyName);
  const recordId = `R-${o.index}`;
  const title = `Record ${o.index}`;
  const read = readToolOf(k, o.slot);
  const inj = k.injection;
  const args =
    inj.kind === 'args' ? withRecord(inj.args, recordId) : read.startsWith('get_profile') ? {} : { recordId };
  const alternatives =
    k.expectedAction === 'replan' || k.expectedAction === 'reject' || k.key === 'ToolCallRepairError'
      ? [
          {
            tool: k.key === 'NoSuchToolError' ? 'get_record' : 'get_record_replica',
            args: { recordId },
          },
        ]
      : [];
  const script: Script = {
    on: { ...REACTIONS, ...(k.key === 'ToolCallRepairError' ? { invalid_arguments: 'next_alternative' } : {}) },
    steps: [
      {
        id: 'read',
        tool: read,
        args,
        fixes: inj.kind === 'args' ? withRecord([...inj.fixes], recordId) : [],
        alternatives,
      },
      { id: 'save', tool: 'save_summary', args: { recordId, title } },
    ],
    submit: { resultFrom: 'read' },
  };
  // A transient read fails 1–2 times (within the retry budget); a transient write once (its replay budget is 1).
  const draw = 1 + Math.floor(o.random() * 2);
  const times = k.lasts === 'persistent' ? Number.POSITIVE_INFINITY : k.step === 'write' ? 1 : draw;
  const expected = read.startsWith('get_profile')
    ? { name: 'Ada', plan: 'pro' }
    : k.key === 'DataError'
      ? { recordId, version: 2 }
      : { recordId, title };
  return {
    key: k,
    goal: `Summarise record ${recordId} for the weekly report (PALADIN ${k.key})`,
    script,
    approves: k.expectedAction === 'request_approval',
    arrange: () => arrange(k, { ...o, recordId, title, times, readTool: read }),
    judge(out, records) {
      const rows = o.env.world.rows('summaries', 'record_id', recordId);
      const goalReached = out.status === 'submitted' && hasFields(out.result, expected) && rows === 1;
      const recovered = k.world === 'recoverable' ? goalReached : out.status !== 'submitted' && rows === 0;
      const action = firstAction(records);
      return {
        key: k.key,
        category: k.category,
        expectedAction: k.expectedAction,
        action,
        correct: action === k.expectedAction,
        recovered,
        hallucinatedSuccess: out.status === 'submitted' && !goalReached,
        world: k.world,
        goalReached,
        toolCalls: records.length,
        dispatches: out.dispatches.length,
        status: out.status,
        actions: out.actions,
        ...(out.reason ? { reason: out.reason.slice(0, 300) } : {}),
      };
    },
  };
}

interface ArrangeContext {
  runId: string;
  env: EvalEnv;
  io: IoEnv;
  recordId: string;
  title: string;
  times: number;
  readTool: string;
  slot?: CredentialSlot;
}

async function arrange(k: PaladinKey, c: ArrangeContext): Promise<void> {
  const { env, recordId } = c;
  env.world.addRecord(recordId, c.title);
  const inj = k.injection;
  const path = k.step === 'read' ? `GET /records/${recordId}` : 'POST /summaries';
  const mine = (body: Record<string, unknown>) => k.step === 'read' || body.recordId === recordId;
  let left = c.times * (inj.kind === 'http' ? (inj.requestsPerDispatch ?? 1) : 1);
  const once = (body: Record<string, unknown>) => mine(body) && left-- > 0;
  if (inj.kind === 'http') {
    const answer = {
      status: inj.status,
      headers: inj.headers ?? {},
      ...(typeof inj.body === 'string' ? { text: inj.body } : { body: inj.body }),
    };
    env.world.fault(path, (_n, _now, body, headers) => {
      if (k.key === '403') return headers['x-approved-by'] ? undefined : answer; // lifted by the approval only
      return once(body) ? answer : undefined;
    });
  } else if (inj.kind === 'result') {
    const text = inj.text.replaceAll('$record', recordId);
    env.world.fault(path, (_n, _now, body) =>
      once(body) ? { status: 200, headers: { 'content-type': inj.contentType }, text } : undefined,
    );
  } else if (inj.kind === 'gaxios') {
    const body = {
      error: {
        code: inj.status,
        message: 'refused',
        errors: [{ domain: 'usageLimits', reason: inj.reason, message: 'refused' }],
      },
    };
    env.world.fault(path, (_n, _now, b) => (once(b) ? { status: inj.status, body } : undefined));
  } else if (inj.kind === 'thrown' || inj.kind === 'io') {
    const make = inj.kind === 'thrown' ? THROWN[k.key] : undefined;
    const run = inj.kind === 'io' ? IO[k.key] : undefined;
    if (!make && !run) throw new Error(`PALADIN ${k.key}: no ${inj.kind} fault maker`);
    env.recorder.inject(c.runId, k.step === 'read' ? c.readTool : 'save_summary', {
      times: c.times,
      raise: async () => {
        if (run) return run(c.io);
        throw make!();
      },
    });
  } else if (inj.kind === 'credential' && inj.mode === 'expired') {
    await env.brokerFor('router').current(c.slot!.credential);
    c.slot!.oauth.expireAll();
  }
}
