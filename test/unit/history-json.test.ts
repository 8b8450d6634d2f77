/**
 * plugin/history-json.ts: a recorded history read and written back with the protobufjs copy @temporalio/proto's
 * types come from (no workers, no servers). The nested-copies layout it exists for is exercised by
 * test/temporal/consumer.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyFromJson, historyToJson } from '../../plugin/history-json';

const FILE = join(__dirname, '..', 'histories', 'transient-then-ok.json');
const recorded = JSON.parse(readFileSync(FILE, 'utf8')) as { events: Record<string, unknown>[] };

describe('history JSON', () => {
  it('reads a recorded history: 11 events, ids as int64 (not strings, so the replayer does not parse it again)', () => {
    const history = historyFromJson(recorded);
    expect(history.events).toHaveLength(11);
    expect(typeof history.events![0]!.eventId).not.toBe('string');
    expect(String(history.events![10]!.eventId)).toBe('11');
  });

  it('writes it back as the same JSON', () => {
    expect(JSON.parse(historyToJson(historyFromJson(recorded)))).toEqual(recorded);
  });

  it('reads the older PascalCase enum form (tctl, Web UI exports) as the CONSTANT_CASE one', () => {
    const pascal = {
      events: recorded.events.map((e) => ({
        ...e,
        eventType: String(e.eventType)
          .replace(/^EVENT_TYPE_/, '')
          .toLowerCase()
          .replace(/(^|_)([a-z])/g, (_m, _u: string, c: string) => c.toUpperCase()),
      })),
    };
    expect(pascal.events[0]!.eventType).toBe('WorkflowExecutionStarted');
    expect(historyFromJson(pascal)).toEqual(historyFromJson(recorded));
  });

  it.each([
    ['null', null, 'not a history: expected an object with an array of events'],
    ['no events', {}, 'not a history: expected an object with an array of events'],
    [
      'an event without attributes',
      { events: [{ eventId: '1', eventType: 'EVENT_TYPE_TIMER_FIRED' }] },
      'not a history: event 1 has no …EventAttributes',
    ],
    ['an event that is not an object', { events: [7] }, 'not a history: an event is not an object'],
  ])('refuses %s with a TypeError', (_name, json, message) => {
    expect(() => historyFromJson(json)).toThrow(new TypeError(message));
  });
});
