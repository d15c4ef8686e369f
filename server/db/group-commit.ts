import type { Kysely } from 'kysely';
import type { Database } from './types.js';

/** A unit of work that runs inside a write transaction it does not own. */
export type GroupWork<T> = (trx: Kysely<Database>) => Promise<T>;

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
 * and then commit together in the next one, each in its own savepoint: a
 * unit that throws is rolled back alone and gets its own error, the others
 * go on; each resolves only once its group committed. If the commit itself
 * fails, every unit that had succeeded runs again alone, in a transaction of
 * its own, so none pays for another's failure.
 *
 * A lone unit (nothing waiting) runs in a plain transaction at once: no
 * delay and no savepoint when there is no traffic.
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
    const succeeded: { member: Member; value: unknown }[] = [];
    let unsettled = group;
    try {
      const trx = await this.db.startTransaction().execute();
      try {
        for (const [i, member] of group.entries()) {
          unsettled = group.slice(i);
          const inside = await trx.savepoint('group_member').execute();
          let value: unknown;
          try {
            value = await member.work(inside);
          } catch (error) {
            // Only this member's statements go; the transaction and the members before stay.
            await inside.rollbackToSavepoint('group_member').execute();
            await inside.releaseSavepoint('group_member').execute();
            unsettled = group.slice(i + 1);
            member.reject(error);
            continue;
          }
          await inside.releaseSavepoint('group_member').execute();
          succeeded.push({ member, value });
        }
        unsettled = [];
        await trx.commit().execute();
      } catch (error) {
        await trx
          .rollback()
          .execute()
          .catch(() => undefined);
        throw error;
      }
    } catch {
      // The group as a whole failed (its commit, or a rollback to a savepoint): nothing of it was kept. Those that
      // had succeeded, and those not yet run, run again alone; each then answers for itself.
      for (const member of [...succeeded.map((done) => done.member), ...unsettled]) await this.alone(member);
      return;
    }
    this.grouped.groups += 1;
    this.grouped.units += succeeded.length;
    for (const { member, value } of succeeded) member.resolve(value);
  }
}
