import { SpanKind } from '@opentelemetry/api';
import { inSpan, tracingOn } from '../observability/tracing.js';
import type { Disk } from './disk.js';

/** The calls that reach the disk or the bucket (signing a URL does not, and `list` is a long walk of its own). */
const TRACED = new Set<PropertyKey>([
  'put',
  'putBytes',
  'adopt',
  'get',
  'stat',
  'delete',
  'deletePrefix',
  'release',
  'createMultipart',
  'listParts',
  'completeMultipart',
  'abortMultipart',
]);

/**
 * The same disk, with a span around each storage call while tracing is on
 * (named `storage put` and so on, with the disk's name and driver, never the
 * key: keys are opaque but they are still ids). A proxy rather than a
 * subclass, so an S3 disk stays an S3Disk for the code that signs URLs.
 */
export function tracedDisk<D extends Disk>(disk: D, name: string, driver: 'local' | 's3'): D {
  return new Proxy(disk, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || !TRACED.has(property) || !tracingOn()) return value;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      return (...args: unknown[]) =>
        inSpan(
          `storage ${String(property)}`,
          { 'drive.storage.disk': name, 'drive.storage.driver': driver, 'drive.storage.operation': String(property) },
          () => method.apply(receiver, args),
          SpanKind.CLIENT,
        );
    },
  });
}
