import { EVENT_TYPE_HEADER } from '../bus/event-types.js';
import type { MessageBus } from '../bus/message-bus.port.js';
import type { PersonalDataCodec } from './personal-data.codec.js';

/**
 * The bus side of the event-log codec: the relay publishes events as stored, personal fields sealed, so
 * Kafka's copies (and its retention, and its backups) hold nothing readable once a subject is erased.
 * Consumers get them opened here, before their handler: a message whose event type declares no personal
 * data is handed over untouched (its value is not even parsed).
 */
export function withPersonalDataOnBus(bus: MessageBus, codec: PersonalDataCodec): MessageBus {
  return {
    name: bus.name,
    publish: (topic, messages) => bus.publish(topic, messages),
    deadLetters: (query) => bus.deadLetters(query),
    close: () => bus.close(),
    consume: (options) =>
      bus.consume({
        ...options,
        handler: async (message) => {
          const type = message.headers[EVENT_TYPE_HEADER];
          if (!type || !codec.hasPersonalData(type)) return options.handler(message);
          const value = JSON.parse(message.value) as { data?: unknown };
          const data = await codec.openData(type, value.data);
          return options.handler(
            data === value.data ? message : { ...message, value: JSON.stringify({ ...value, data }) },
          );
        },
      }),
  };
}
