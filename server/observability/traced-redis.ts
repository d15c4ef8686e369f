import type { Redis } from 'ioredis';
import { childSpan } from './tracing.js';

type Command = Parameters<Redis['sendCommand']>[0];

/**
 * A span for each command a request or a job sends on this connection (rate
 * limits, tus locks, broadcasts), named by the command alone: its arguments are
 * keys with ids and values, so they stay out of the trace, as statements'
 * values do. Commands outside a traced context (BullMQ's polling, subscribers'
 * housekeeping) make no span, so an idle server exports nothing.
 */
export function traceRedisCommands(redis: Redis): Redis {
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = (command: Command, stream?: Parameters<Redis['sendCommand']>[1]) => {
    const end = childSpan(command.name.toUpperCase(), { 'db.system.name': 'redis', 'db.operation.name': command.name.toUpperCase() });
    // ioredis's own promise goes back unchanged (pipelines and transactions rely on it); the span follows it.
    const result = send(command, stream);
    if (end)
      command.promise.then(
        () => end(),
        (error: unknown) => end(error),
      );
    return result;
  };
  return redis;
}
