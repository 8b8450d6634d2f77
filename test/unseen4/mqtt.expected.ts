/**
 * What each mqtt case should route to. Sources: MQTT 5.0 (OASIS), §2.4 reason codes (a code of 0x80 or more is a
 * failure), §3.2.2.2 CONNACK reason codes (0x87 Not authorized: the connection is refused, mosquitto's answer to a
 * wrong password with `password_file`), §3.4.2.1 PUBACK reason codes (0x87 Not authorized: "the PUBLISH is not
 * authorized", the message was not accepted), mosquitto.conf(5) `acl_file`, and docs/DESIGN.md.
 */
import type { ExpectedTable4 } from './cases';

const NOT_SENT = 'DESIGN.md Phases: a refused connection left nothing; replay-safe for any tool → retry';
const CONNACK =
  'MQTT 5.0 §3.2.2.2 CONNACK 0x87 (mosquitto, wrong password): the connection, i.e. the credential, was refused → reauth';
const PUBACK =
  'MQTT 5.0 §3.4.2.1 PUBACK 0x87 Not authorized: the broker did not accept the message (ACL); DESIGN.md Routes → stop';

export const MQTT_EXPECTED: ExpectedTable4 = {
  'mqtt.refused.read': { class: 'transient', action: 'retry', harm: 'costly', source: NOT_SENT },
  'mqtt.refused.write': { class: 'transient', action: 'retry', applied: 'no', harm: 'costly', source: NOT_SENT },
  'mqtt.connack-not-authorized-135.read': {
    class: 'authentication',
    action: 'reauth',
    harm: 'costly',
    source: CONNACK,
  },
  'mqtt.connack-not-authorized-135.write': {
    class: 'authentication',
    action: 'reauth',
    applied: 'no',
    harm: 'costly',
    source: `${CONNACK}; nothing was published`,
  },
  'mqtt.puback-not-authorized-135.write': {
    class: 'authorization',
    action: 'stop',
    applied: 'no',
    harm: 'costly',
    source: PUBACK,
  },
  'mqtt.puback-read-only-topic-135.write': {
    class: 'authorization',
    action: 'stop',
    applied: 'no',
    harm: 'costly',
    source: `${PUBACK} (the ACL grants this topic read only)`,
  },
  'mqtt.reset-after-request.read': {
    class: 'transient',
    action: 'retry',
    harm: 'costly',
    source: 'DESIGN.md classes: a read (a subscription) whose connection was reset is replay-safe → retry',
  },
  'mqtt.reset-after-request.write': {
    class: 'outcome_unknown',
    action: 'reconcile',
    applied: 'maybe',
    harm: 'unsafe',
    source: 'DESIGN.md Phases: the PUBLISH reached the broker and no PUBACK came → outcome_unknown → reconcile',
  },
};
