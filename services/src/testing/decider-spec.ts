import { expect } from 'vitest';
import type { KesherEvent } from '@kesher/contracts';
import type { Decider } from '../platform/commands/decider.js';

/**
 * Given–when–then for deciders: `given(past events).when(command).then(new events)` or
 * `.thenThrows(ErrorClass, message?)`.
 */
export function deciderSpec<State, Command, Event extends KesherEvent>(decider: Decider<State, Command, Event>) {
  return {
    given(events: Event[]) {
      return {
        when(command: Command) {
          const run = () => decider.decide(command, events.reduce(decider.evolve, decider.initialState()));
          return {
            then(expected: Event[]) {
              expect(run()).toEqual(expected);
            },
            thenThrows(errorClass: new (...args: never[]) => Error, message?: string | RegExp) {
              let thrown: unknown;
              try {
                run();
              } catch (error) {
                thrown = error;
              }
              expect(thrown).toBeInstanceOf(errorClass);
              if (message !== undefined) expect((thrown as Error).message).toMatch(message);
            },
          };
        },
      };
    },
  };
}
