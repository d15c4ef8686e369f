import type { Kysely } from 'kysely';
import type { Database } from './types.js';

/** A unit of work that runs inside a write transaction it does not own. */
export type GroupWork<T> = (trx: Kysely<Database>) => Promise<T>;

/** Work the units of one group share, done once after the last of them and before the commit (see `shared`). */
interface Shared {
  value: unknown;
  flush: (trx: Kysely<Database>, value: unknown) => Promise<void>;
}

interface Member {
  work: GroupWork<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Enough to amortise a commit; a bound so that one group never holds the connection for long. */
const MAX_GROUP = 32;

/** How long a group waits at most for units announced (`expect`) but not yet arrived. */
const GATHER_MS = 4;

/** A unit announced before its work is ready (its bytes being stored): the group about to start waits for it a little. */
export interface Expected {
  /** It will not come (it failed first, or came): idempotent. */
  done(): void;
}

/**
 * Group commit for small write transactions (issue 37: 10,000 WebDAV PUTs).
 *
 * On SQLite every write transaction is serial, and its commit — writing the
 * pages it touched to the WAL, now and then a checkpoint — cost more than its
 * statements: a new file's touches ~45 pages (the entry's indexes, the name
 * index, sizes, activity). Units that arrive while a transaction runs wait
 * and then commit together in the next one: a unit that throws gets its own
 * error and the others go on (the group is rolled back and run again
 * without it, see `attempt`); each resolves only once its group committed. If the commit itself
 * fails, every unit that had succeeded runs again alone, in a transaction of
 * its own, so none pays for another's failure.
 *
 * A lone unit (nothing waiting) runs in a plain transaction at once: no
 * delay when there is no traffic.
 *
 * PostgreSQL runs transactions side by side on its pool (and commits them in
 * parallel), so grouping there would serialise writers that do not need it:
 * `enabled` is false there and every unit is its own transaction.
 */
export class GroupCommit {
  private waiting: Member[] = [];
  private busy = false;
  private expected = 0;
  private arrived: (() => void) | null = null;
  /** The shared work of the transaction a group is running in, by key (only while its units run). */
  private readonly sharing = new WeakMap<Kysely<Database>, Map<string, Shared>>();
  /** Units committed in a group of more than one, and such groups (tests read it: grouping happened). */
  readonly grouped = { units: 0, groups: 0 };

  constructor(
    private readonly db: Kysely<Database>,
    private readonly enabled: boolean,
    private readonly maxGroup = MAX_GROUP,
  ) {}

  /**
   * Announces a unit that will `run` soon: a small file whose bytes are being stored. Units arrive one by one as
   * the event loop gets to each, so a group that started at the first arrival would mostly hold one; it waits
   * instead (at most GATHER_MS) for the announced ones. Call `done` when the unit runs or gives up.
   */
  expect(): Expected {
    if (!this.enabled) return { done: () => undefined };
    this.expected += 1;
    let settled = false;
    return {
      done: () => {
        if (settled) return;
        settled = true;
        this.expected -= 1;
        this.arrived?.();
      },
    };
  }

  run<T>(work: GroupWork<T>, announced?: Expected): Promise<T> {
    if (!this.enabled) return this.db.transaction().execute(work);
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
      announced?.done();
      if (!this.busy) void this.drain();
    });
  }

  /**
   * Inside a unit's work: the value its group's units share under `key` (made by `make` for the first of them), which
   * `flush` writes once after the last unit ran, before the commit; null when `trx` is not a group's transaction
   * (a unit alone, PostgreSQL), where the unit writes its part itself. For writes that add up, such as the sizes of
   * the folders the units' new files are in: one update per folder per group instead of one per file.
   */
  shared<T>(trx: Kysely<Database>, key: string, make: () => T, flush: (trx: Kysely<Database>, value: T) => Promise<void>): T | null {
    const sharing = this.sharing.get(trx);
    if (!sharing) return null;
    let entry = sharing.get(key);
    if (!entry) sharing.set(key, (entry = { value: make(), flush: flush as Shared['flush'] }));
    return entry.value as T;
  }

  /** Until every announced unit arrived, the group is full, or GATHER_MS passed. */
  private async gather(): Promise<void> {
    const deadline = performance.now() + GATHER_MS;
    while (this.expected > 0 && this.waiting.length < this.maxGroup) {
      const left = deadline - performance.now();
      if (left <= 0) return;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.arrived = resolve;
        timer = setTimeout(resolve, left);
      });
      clearTimeout(timer);
      this.arrived = null;
    }
  }

  private async drain(): Promise<void> {
    this.busy = true;
    try {
      while (this.waiting.length) {
        await this.gather();
        const group = this.waiting.splice(0, this.maxGroup);
        if (group.length === 1) await this.alone(group[0]!);
        else await this.together(group);
      }
    } finally {
      this.busy = false;
    }
  }

  private async alone(member: Member): Promise<void> {
    try {
      member.resolve(await this.db.transaction().execute(member.work));
    } catch (error) {
      member.reject(error);
    }
  }

  private async together(group: Member[]): Promise<void> {
    let members = group;
    for (;;) {
      const outcome = await this.attempt(members);
      if (outcome.kind === 'committed') {
        this.grouped.groups += 1;
        this.grouped.units += outcome.values.length;
        for (const [i, value] of outcome.values.entries()) members[i]!.resolve(value);
        return;
      }
      if (outcome.kind === 'failed') {
        // The group as a whole failed (its commit, or a rollback): nothing of it was kept. Each unit runs again
        // alone and then answers for itself.
        for (const member of members) await this.alone(member);
        return;
      }
      // One unit threw: it answers with its own error, and the others start again without it (the units before it
      // run again: nothing of their first run was kept). Fewer than two left run alone.
      outcome.member.reject(outcome.error);
      members = members.filter((member) => member !== outcome.member);
      if (members.length === 1) return this.alone(members[0]!);
      if (!members.length) return;
    }
  }

  /**
   * The units one after another in one transaction, without a savepoint each: on SQLite a savepoint makes every
   * page a unit touches first be copied to the statement journal (a new file's insert, its folders' sizes and its
   * activity row: ~40 µs of a PUT's ~330 µs of SQLite). A unit that throws rolls the whole transaction back instead,
   * and `together` starts again without it, which costs only when a unit fails.
   */
  private async attempt(
    members: Member[],
  ): Promise<{ kind: 'committed'; values: unknown[] } | { kind: 'threw'; member: Member; error: unknown } | { kind: 'failed' }> {
    let trx: Awaited<ReturnType<ReturnType<Kysely<Database>['startTransaction']>['execute']>>;
    try {
      trx = await this.db.startTransaction().execute();
    } catch {
      return { kind: 'failed' };
    }
    const values: unknown[] = [];
    let threw: { member: Member; error: unknown } | null = null;
    const sharing = new Map<string, Shared>();
    this.sharing.set(trx, sharing);
    try {
      for (const member of members) {
        try {
          values.push(await member.work(trx));
        } catch (error) {
          threw = { member, error };
          break;
        }
      }
      this.sharing.delete(trx);
      if (!threw) {
        for (const { value, flush } of sharing.values()) await flush(trx, value);
        await trx.commit().execute();
        return { kind: 'committed', values };
      }
    } catch {
      await trx
        .rollback()
        .execute()
        .catch(() => undefined);
      return { kind: 'failed' };
    }
    try {
      await trx.rollback().execute();
    } catch {
      return { kind: 'failed' };
    }
    return { kind: 'threw', ...threw };
  }
}
