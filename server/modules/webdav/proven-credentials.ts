/** How long a proven token skips the sign-in count; the token itself is still checked on every request. */
const TTL_MS = 10 * 60_000;
/** Beyond this many entries the set starts again rather than grow without end. */
const MAX_ENTRIES = 10_000;

/**
 * Hashes of WebDAV tokens that were right lately, per process. A file
 * manager opens many connections at once; were each of its requests counted
 * before its token is checked, a burst would use up the sign-in limits and
 * lock the owner out. Only an exact right token is ever found here, so it
 * tells a guesser nothing.
 */
export class ProvenCredentials {
  private readonly until = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  has(hash: string): boolean {
    const until = this.until.get(hash);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(hash);
    return false;
  }

  add(hash: string): void {
    if (this.until.size >= MAX_ENTRIES) this.until.clear();
    this.until.set(hash, this.now() + TTL_MS);
  }

  drop(hash: string): void {
    this.until.delete(hash);
  }
}
