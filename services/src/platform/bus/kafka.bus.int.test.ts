import { kafkaAvailability, kafkaBrokers } from '../../testing/kafka.js';
import { createKafkaBus } from './kafka.bus.js';
import { messageBusContract } from './message-bus.contract.js';

const openBus = () => createKafkaBus({ brokers: kafkaBrokers(), clientId: 'kesher-contract-test' });
const kafka = await kafkaAvailability();

messageBusContract(
  'kafka',
  async () => {
    let bus = openBus();
    return {
      bus,
      teardown: () => bus.close(),
      restart: async () => {
        await bus.close();
        bus = openBus();
        return bus;
      },
    };
  },
  kafka,
);
