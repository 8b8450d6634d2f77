/**
 * The recovery eval finds a run by its operation ids (bench/eval/recorder.ts `runIdOf`): its faults, its rows and its
 * dispatches are keyed by the workflow id. Pure: no workers, no servers.
 */
import { runIdOf } from '../../bench/eval/recorder';

test("eval: a write's key <workflowId>@<intent>:<stepId> and a read's call id <workflowId>:<…> both name the run", () => {
  expect(runIdOf('ev-lost-response-refund-router-14000007@01a24a3a-9da1-71ad-988c-b29817187884:refund')).toBe(
    'ev-lost-response-refund-router-14000007',
  );
  expect(runIdOf('ev-slot-taken-router-3:t1:check_inventory#0')).toBe('ev-slot-taken-router-3');
  expect(runIdOf('plain')).toBe('plain');
});
