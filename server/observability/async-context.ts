import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';

/** What every log line written while serving a request carries. */
export interface LogIds {
  reqId: string;
  traceId?: string;
}

interface Store {
  ids?: LogIds;
  trace?: Context;
}

/**
 * The one async-context store of a request: its log ids and, while tracing
 * is on, OpenTelemetry's active context. Node gives each AsyncLocalStorage its
 * own write on every promise and callback made; with one for the logs and one
 * for OpenTelemetry, tracing on paid that twice for every promise of every
 * request (the observability bench's profile).
 */
const store = new AsyncLocalStorage<Store>();

export const currentIds = (): LogIds | undefined => store.getStore()?.ids;

/** Runs `fn` with `ids` as the log ids and `trace` (a request's span, when traced) as the active trace context. */
export function runWithIds<R>(ids: LogIds, fn: () => R, trace?: Context): R {
  return store.run(trace ? { ids, trace } : { ids }, fn);
}

/**
 * The active trace context, read from the store without going through the
 * OpenTelemetry API's global (which checks its registered version on every
 * call): the same answer while SharedContextManager is the registered one,
 * which it is whenever tracing is on.
 */
export const activeTraceContext = (): Context => store.getStore()?.trace ?? ROOT_CONTEXT;

/** Runs `fn` with `context` active, keeping the log ids (what the manager's `with` does). */
export function withTraceContext<A extends unknown[], R>(context: Context, fn: (...args: A) => R, ...args: A): R {
  return store.run({ ids: store.getStore()?.ids, trace: context }, fn, ...args);
}

/**
 * OpenTelemetry's context manager over that store: the same semantics as the
 * SDK's AsyncLocalStorageContextManager (which it extends for `bind`), the
 * log ids carried along when a span becomes active.
 */
export class SharedContextManager extends AsyncLocalStorageContextManager {
  override active(): Context {
    return activeTraceContext();
  }

  override with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    const run = thisArg == null ? fn : (fn.bind(thisArg) as F);
    return withTraceContext(context, run, ...args);
  }

  override attach(context: Context): { dispose(): void } {
    const previous = store.getStore();
    store.enterWith({ ids: previous?.ids, trace: context });
    let disposed = false;
    return {
      dispose() {
        if (disposed) return;
        disposed = true;
        store.enterWith(previous ?? {});
      },
    };
  }

  /** The store is the log context's too: it stays on when tracing stops. */
  override disable(): this {
    return this;
  }
}
