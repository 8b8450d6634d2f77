/** Every scenario of the recovery eval, in the order the tables print them. */
import type { Scenario } from '../scenario';
import { capabilityMissing, forbidden, invalidArguments, invalidResult, tokenExpiry, toolBug } from './classes';
import { pgKilledAfterCommit, pgSerialization } from './dialects';
import { rateLimitStorm, transientStorm } from './storms';
import { alreadyHolds, documentDeleted, lostEmail, lostRefund, priceChanged, slotTaken } from './world';

export const SCENARIOS: readonly Scenario[] = Object.freeze([
  invalidArguments,
  transientStorm,
  rateLimitStorm,
  tokenExpiry,
  forbidden,
  capabilityMissing,
  slotTaken,
  priceChanged,
  documentDeleted,
  lostRefund,
  lostEmail,
  invalidResult,
  toolBug,
  alreadyHolds,
  pgSerialization,
  pgKilledAfterCommit,
]);
