/**
 * searchAttributeProblems (plugin/search-attribute-check.ts): which of the plugin's search attributes a namespace's
 * custom attributes (name → IndexedValueType) lack or hold with another type. No workers, no servers; the Worker's
 * refusal on a real namespace is test/temporal/search-attribute-check.test.ts.
 */
import { searchAttributeProblems } from '../../plugin/search-attribute-check';

describe('searchAttributeProblems', () => {
  it('all three as Keyword (2) → none', () => {
    expect(searchAttributeProblems({ RecoveryStatus: 2, RecoveryTool: 2, RecoveryOperationId: 2, Other: 1 })).toEqual(
      [],
    );
  });
  it('none registered → each, in the order the plugin sets them', () => {
    expect(searchAttributeProblems({})).toEqual(['RecoveryStatus', 'RecoveryTool', 'RecoveryOperationId']);
  });
  it('one as Text (1), one of a type this list does not name (99) → named with the type they have', () => {
    expect(searchAttributeProblems({ RecoveryStatus: 1, RecoveryTool: 99, RecoveryOperationId: 2 })).toEqual([
      'RecoveryStatus (Text)',
      'RecoveryTool (99)',
    ]);
  });
  it('a name only on the prototype chain does not count', () => {
    expect(searchAttributeProblems(Object.create({ RecoveryStatus: 2 }) as Record<string, unknown>)).toContain(
      'RecoveryStatus',
    );
  });
});
