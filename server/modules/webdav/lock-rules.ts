import { userIdOf, type Actor } from '../access/actor.js';
import { etagMatches, parseIfHeader, submittedTokens, type ConditionList } from './conditions.js';
import { etagOf, type DavResponse } from './props.js';
import { ancestorKeys, type DavLock, type LockTarget, type WebDavRepository } from './repository.js';
import { ancestorIds } from '../drive/repository.js';
import { DAV_PREFIX, fail, header, type DavRequest, type WebDavDeps } from './request.js';
import { lockKey, resolve, segmentsOf, type Listed, type Resource } from './resources.js';

/**
 * Which locks apply where, and whether a write may go past them: the If
 * header (RFC 4918 §10.4) and the lock tokens it submits. Every method that
 * writes asks `check` first; PROPFIND shows `locksFor` its members.
 */
export class LockRules {
  constructor(private readonly deps: WebDavDeps) {}

  /** What locks are looked up by for a resource: its path key and, below the tops, the entries it is or lies in. */
  targetOf(actor: Actor, resource: Resource | Listed): LockTarget {
    const top =
      resource.kind === 'entry' || resource.kind === 'top'
        ? resource.top
        : resource.kind === 'missing' && resource.parent.kind !== 'root'
          ? resource.parent.top
          : null;
    const scope =
      resource.kind === 'entry' || resource.kind === 'top'
        ? resource.scope
        : resource.kind === 'missing' && resource.parent.kind !== 'root'
          ? resource.parent.scope
          : null;
    const key = lockKey(top, userIdOf(actor), scope?.ownerId ?? null, resource.path);
    if (resource.kind === 'entry') return { key, entryId: resource.entry.id, path: resource.entry.path, ancestorIds: ancestorIds(resource.entry.path) };
    if (resource.kind === 'missing' && resource.parent.kind === 'entry') {
      const parent = resource.parent.entry;
      return { key, entryId: null, path: null, ancestorIds: [...ancestorIds(parent.path), parent.id] };
    }
    return { key, entryId: null, path: null, ancestorIds: [] };
  }

  /** Live locks that apply to a resource (see `applies`); `repo`: the one of a transaction. */
  async applicable(target: LockTarget, options: { parent: boolean; below: boolean }, repo: WebDavRepository = this.deps.repo): Promise<DavLock[]> {
    const locks = await repo.locksAround(target);
    return locks.filter((lock) => applies(lock, target, options));
  }

  /**
   * The locks that apply to each member of a PROPFIND (keyed by path): one
   * look-up around the collection asked about — its own, its ancestors' and
   * those below it — then decided member by member. The top-level listings,
   * whose members are spaces of their own, ask per member. A member with no
   * lock has no key in the answer.
   */
  async locksFor(actor: Actor, members: Listed[]): Promise<Map<string, DavLock[]>> {
    const result = new Map<string, DavLock[]>();
    const [collection] = members;
    const batched = collection && (collection.kind === 'entry' || (collection.kind === 'top' && collection.top.kind === 'space'));
    const around = batched ? await this.deps.repo.locksAround(this.targetOf(actor, collection)) : null;
    // No lock around the collection (the usual listing): nothing to decide for each of its thousands of members.
    if (around && !around.length) return result;
    for (const member of members) {
      if (member.kind === 'root') continue;
      const target = this.targetOf(actor, member);
      const candidates = around ?? (await this.deps.repo.locksAround(target));
      result.set(
        member.path.join('/'),
        candidates.filter((lock) => applies(lock, target, { parent: false, below: false })),
      );
    }
    return result;
  }

  /**
   * The If header and the locks in the way of a write: 412 when the header's
   * conditions all fail, 423 when a lock applies and none of its tokens was
   * submitted by its owner. `membership`: the write adds or removes a member
   * of the parent collection, so the parent's own lock applies too.
   */
  async check(actor: Actor, request: DavRequest, resource: Resource, membership: boolean, below = false): Promise<DavResponse | null> {
    const key = this.targetOf(actor, resource);
    const ifHeader = header(request, 'if');
    const lists = ifHeader ? parseIfHeader(ifHeader) : [];
    if (lists.length && !(await this.evaluate(actor, lists, resource, key))) return { status: 412 };
    const submitted = new Set(submittedTokens(lists));
    const locks = await this.applicable(key, { parent: membership, below });
    const userId = userIdOf(actor);
    const blocking = locks.filter((lock) => !(submitted.has(lock.token) && lock.userId === userId));
    // Shared locks: holding any one of them is enough; an exclusive lock needs its own token.
    const holdsShared = locks.some((lock) => lock.scope === 'shared' && submitted.has(lock.token) && lock.userId === userId);
    const stillBlocking = blocking.filter((lock) => !(lock.scope === 'shared' && holdsShared));
    return stillBlocking.length ? fail(423, 'lock-token-submitted') : null;
  }

  private async evaluate(actor: Actor, lists: ConditionList[], resource: Resource, key: LockTarget): Promise<boolean> {
    for (const list of lists) {
      let target = resource;
      let targetKey = key;
      if (list.resource) {
        try {
          const path = segmentsOf(new URL(list.resource, 'http://localhost').pathname, DAV_PREFIX);
          target = await resolve(this.deps, actor, path);
          targetKey = this.targetOf(actor, target);
        } catch {
          continue;
        }
      }
      const locks = await this.applicable(targetKey, { parent: false, below: false });
      const etag = target.kind === 'entry' ? etagOf(target.entry) : null;
      const holds = list.conditions.every((condition) => {
        const truth = condition.kind === 'token' ? locks.some((lock) => lock.token === condition.value) : etagMatches(condition.value, etag);
        return condition.not ? !truth : truth;
      });
      if (holds) return true;
    }
    return false;
  }
}

/**
 * Whether a lock applies to a target: on itself, on an ancestor with depth
 * infinity, (parent) on its direct parent, and (below) on anything below it.
 * Locks on entries are matched by entry, so they follow renames and moves;
 * older path-keyed locks by path.
 */
function applies(lock: DavLock, target: LockTarget, options: { parent: boolean; below: boolean }): boolean {
  if (lock.entryId !== null) {
    if (lock.entryId === target.entryId) return true;
    if (target.ancestorIds.includes(lock.entryId)) return lock.depth === 'infinity' || (options.parent && lock.entryId === target.ancestorIds.at(-1));
    return options.below && target.path !== null;
  }
  const ancestors = ancestorKeys(target.key);
  if (lock.resource === target.key) return true;
  if (ancestors.includes(lock.resource)) return lock.depth === 'infinity' || (options.parent && lock.resource === ancestors.at(-1));
  return options.below && lock.resource.startsWith(`${target.key}/`);
}
