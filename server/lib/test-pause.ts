/**
 * A deterministic place to kill the server in crash tests (TEST_PAUSE_AT,
 * like PUSH_ALLOW_LOOPBACK: never set in production). Timing a SIGKILL into
 * the few milliseconds of a commit is hopeless; stopping there is not.
 */
export type PausePoint = 'entry-commit';

export type Pause = (point: PausePoint) => Promise<void>;

export const noPause: Pause = async () => undefined;

/** Stops every request reaching `at`, after saying so on stderr (the test waits for that line). */
export function pauseAt(at: PausePoint | null): Pause {
  if (at === null) return noPause;
  return (point) => {
    if (point !== at) return Promise.resolve();
    process.stderr.write(`paused at ${point}\n`);
    return new Promise<void>(() => undefined);
  };
}
