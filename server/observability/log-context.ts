import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { TraceFlags, type SpanContext } from '@opentelemetry/api';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { currentIds, type LogIds } from './async-context.js';

export type { LogIds };

/*
 * Lines written by services through the app's logger (not `request.log`) still
 * belong to a request: the ids travel in async context (async-context.ts), and
 * the root logger's mixin adds them. Request loggers already carry them as bindings.
 */
const requestLoggers = new WeakSet<object>();

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * An incoming X-Request-Id (a proxy's or a client's) is kept when it is a plain
 * token, so the same id reaches every hop; anything else could forge or break
 * log lines, and gets a fresh id.
 */
const SANE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export function requestIdFor(raw: IncomingMessage): string {
  const given = raw.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SANE_ID.test(given) ? given : randomUUID();
}

const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;

/**
 * The trace a request belongs to: the server's own span when tracing sampled
 * it, else the browser's `traceparent`, so a line can be matched with the
 * page's trace even on a site that does not trace.
 */
export function traceIdFor(own: SpanContext | undefined, headers: IncomingHttpHeaders): string | undefined {
  // A trace sampled out is exported by nobody: its id would only send a reader looking for it.
  if (own && (own.traceFlags & TraceFlags.SAMPLED) !== 0) return own.traceId;
  const header = headers.traceparent;
  const match = typeof header === 'string' ? TRACEPARENT.exec(header) : null;
  return match && match[1] !== '00000000000000000000000000000000' ? match[1] : undefined;
}

/** The ids of the request being served here, if any (log mixin, error reports). */
export const currentLogIds = currentIds;

type LoggerOptions = Exclude<FastifyServerOptions['logger'], undefined | boolean | FastifyBaseLogger>;

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogFn = FastifyBaseLogger['info'];

/**
 * A request's logger, made the first time a line at an enabled level is
 * written. Fastify asks for one per request; a pino child serialises its
 * bindings (request id, trace id) when made, ~6 µs of a 200 µs request in the
 * observability bench's profile, for requests that at the default level
 * (warn) mostly write nothing.
 */
class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | null = null;
  /** Given by the request's first hook (see withTraceId), before its first line is written. */
  traceId: string | undefined = undefined;
  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;

  constructor(
    readonly parent: FastifyBaseLogger,
    private readonly make: () => FastifyBaseLogger,
  ) {}

  real(): FastifyBaseLogger {
    return (this.made ??= this.make());
  }

  get started(): boolean {
    return this.made !== null;
  }

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  silent(): void {}

  child(bindings: Record<string, unknown>, options?: Parameters<FastifyBaseLogger['child']>[1]): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
}

// On the prototype, not per instance: a request's logger should cost one small object.
for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const) {
  RequestLogger.prototype[level] = function (this: RequestLogger, ...args: Parameters<LogFn>) {
    if (this.started || isEnabled(this.parent, level)) this.real()[level](...args);
  } as LogFn;
}

/** pino's own test when the logger has it; otherwise (a custom logger) every line is passed on. */
function isEnabled(logger: FastifyBaseLogger, level: Level): boolean {
  const test = (logger as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
  return test ? test.call(logger, level) : true;
}

/**
 * The request's trace id, for its logger's lines. Handed over rather than
 * looked up from the raw request: a WeakMap keyed by each request (what this
 * was) keeps the request's objects through young-generation collections, and
 * at rate 1 that promoted ten times the bytes a listing otherwise promotes
 * (issue 33's bench, --trace-gc-nvp).
 */
export function withTraceId(logger: FastifyBaseLogger, traceId: string | undefined): void {
  if (traceId !== undefined && logger instanceof RequestLogger) logger.traceId = traceId;
}

/** Fastify options: our request id, its header, and ids on every line of the request. */
export function logContextOptions(
  logger: boolean | LoggerOptions,
): Pick<FastifyServerOptions, 'genReqId' | 'requestIdHeader' | 'childLoggerFactory' | 'logger'> {
  return {
    genReqId: requestIdFor,
    // genReqId reads and checks the header itself.
    requestIdHeader: false,
    childLoggerFactory(logger, bindings, options, raw) {
      // Made before the hooks run (the request's span starts in the first one): the trace id is bound at the first line.
      const made: RequestLogger = new RequestLogger(logger, () => {
        const child = logger.child({ ...bindings, traceId: made.traceId ?? traceIdFor(undefined, (raw as IncomingMessage).headers) }, options);
        requestLoggers.add(child);
        return child;
      });
      return made;
    },
    logger:
      logger === false || logger === true
        ? logger
        : {
            ...logger,
            mixin(_merge: object, _level: number, from: object) {
              if (requestLoggers.has(from)) return {};
              return currentIds() ?? {};
            },
          },
  };
}
