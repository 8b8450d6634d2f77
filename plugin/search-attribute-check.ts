/**
 * What a Worker with the plugin checks before it polls: its namespace has the plugin's search attributes
 * (workflows/search-attributes.ts: `RecoveryStatus`, `RecoveryTool`, `RecoveryOperationId`), each of type Keyword.
 *
 * Why before: a workflow that sets a search attribute its namespace lacks fails its workflow task with
 * `BadSearchAttributes` on every attempt (Temporal docs, "Search Attributes"), and the router sets them exactly when
 * a call waits for an approval or a write's unknown outcome is reconciled, so the run would wedge at the moment it
 * matters most. The Worker refuses to start instead (`SearchAttributesError`), naming the commands that register
 * them. A server that cannot be asked (no operator API: the time-skipping test server, or an API key without the
 * permission) gets a warning in the Worker's log, and the Worker runs.
 *
 * Node-side only.
 */
import { Runtime, type Worker } from '@temporalio/worker';
import { RecoveryError } from '../recovery/recovery-error';
import { SEARCH_ATTRIBUTES } from '../workflows/search-attributes';

/** `IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD` (temporal.api.enums.v1), the type the plugin's attributes need. */
const KEYWORD = 2;
/** The other `IndexedValueType` names, for the message about a wrong type. */
const TYPE_NAMES: Readonly<Record<number, string>> = {
  1: 'Text',
  2: 'Keyword',
  3: 'Int',
  4: 'Double',
  5: 'Bool',
  6: 'Datetime',
  7: 'KeywordList',
};

/** The namespace lacks a search attribute the plugin sets, or has one of another type than Keyword. */
export class SearchAttributesError extends RecoveryError<'search_attributes_missing'> {
  override readonly name = 'SearchAttributesError';
  static override readonly codes: readonly string[] = ['search_attributes_missing'];
  constructor(
    readonly namespace: string,
    /** Each attribute that is missing or of another type: `RecoveryStatus` or `RecoveryStatus (Text)`. */
    readonly problems: readonly string[],
  ) {
    const names = SEARCH_ATTRIBUTES.map((k) => k.name);
    super(
      'search_attributes_missing',
      `recovery-router: namespace "${namespace}" lacks the Keyword search attributes ${problems.join(', ')}, which ` +
        'the router sets on a call waiting for approval or a reconciliation (a workflow task that sets one would ' +
        'fail on every attempt). Register them: ' +
        names
          .map((n) => `temporal operator search-attribute create --namespace ${namespace} --name ${n} --type Keyword`)
          .join('; ') +
        ` (a dev server: temporal server start-dev ${names.map((n) => `--search-attribute ${n}=Keyword`).join(' ')}, ` +
        'or npx recovery-router server). Or turn them off: new RecoveryPlugin({ searchAttributes: false, … }) and ' +
        'start workflows with plugin.workflowDefaults().',
    );
  }
}

/**
 * Asks the Worker's namespace for its custom search attributes.
 * @throws SearchAttributesError when one of the plugin's is missing or not a Keyword.
 */
export async function checkSearchAttributes(worker: Worker): Promise<void> {
  const connection = worker.connection;
  if (!connection) return;
  const namespace = worker.options.namespace;
  let custom: Record<string, unknown>;
  try {
    const answer = await connection.operatorService.listSearchAttributes({ namespace });
    custom = (answer.customAttributes ?? {}) as Record<string, unknown>;
  } catch (err) {
    Runtime.instance().logger.warn("recovery-router: could not list the namespace's search attributes; not checked", {
      namespace,
      error: err instanceof Error ? err.message : String(err),
    });
    return;
  }
  const problems = searchAttributeProblems(custom);
  if (problems.length > 0) throw new SearchAttributesError(namespace, problems);
}

/** Each of the plugin's attributes that `custom` (name → IndexedValueType) lacks, or has of another type. */
export function searchAttributeProblems(custom: Readonly<Record<string, unknown>>): string[] {
  return SEARCH_ATTRIBUTES.flatMap((key) => {
    if (!Object.hasOwn(custom, key.name)) return [key.name];
    const type = custom[key.name];
    if (type === KEYWORD) return [];
    return [`${key.name} (${TYPE_NAMES[Number(type)] ?? String(type)})`];
  });
}
