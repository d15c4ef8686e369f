import { createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { currentIds, runWithIds, SharedContextManager } from '../../../server/observability/async-context.js';

const KEY = createContextKey('test key');
const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

/**
 * Issue 33: the log ids and OpenTelemetry's context share one async store
 * (one propagation per promise instead of two); neither may lose the other.
 */
describe('one async context for log ids and traces', () => {
  const manager = new SharedContextManager();

  it('keeps the log ids when a trace context becomes active, and the trace context across awaits', async () => {
    const traced = ROOT_CONTEXT.setValue(KEY, 'span of request a');
    const seen = await runWithIds({ reqId: 'request-a', traceId: 'trace-a' }, () =>
      manager.with(traced, async () => {
        await tick();
        return { ids: currentIds(), value: manager.active().getValue(KEY) };
      }),
    );
    expect(seen).toEqual({ ids: { reqId: 'request-a', traceId: 'trace-a' }, value: 'span of request a' });
  });

  it('keeps concurrent requests apart, and nothing leaks outside them', async () => {
    const one = (id: string) =>
      runWithIds({ reqId: id }, () =>
        manager.with(ROOT_CONTEXT.setValue(KEY, id), async () => {
          await tick();
          const inner = await manager.with(manager.active().setValue(KEY, `${id} child`), async () => {
            await tick();
            return manager.active().getValue(KEY);
          });
          return [currentIds()?.reqId, manager.active().getValue(KEY), inner];
        }),
      );
    expect(await Promise.all([one('x'), one('y')])).toEqual([
      ['x', 'x', 'x child'],
      ['y', 'y', 'y child'],
    ]);
    expect(currentIds()).toBeUndefined();
    expect(manager.active()).toBe(ROOT_CONTEXT);
  });

  it('binds a callback to the context it was given (the SDK manager’s bind)', async () => {
    const bound = runWithIds({ reqId: 'binder' }, () => manager.bind(ROOT_CONTEXT.setValue(KEY, 'bound'), () => manager.active().getValue(KEY)));
    expect(bound()).toBe('bound');
    const token = manager.attach(ROOT_CONTEXT.setValue(KEY, 'attached'));
    expect(manager.active().getValue(KEY)).toBe('attached');
    token.dispose();
    expect(manager.active().getValue(KEY)).toBeUndefined();
  });
});
