import { Conflict } from '../../../lib/errors.js';
import type { SessionsService } from '../../auth/sessions.js';
import type { AdminActivity } from '../activity/service.js';
import type { Bootstrap } from '../../bootstrap/service.js';

export const NOT_IMPERSONATING = 'You are not signed in as someone else.';

/** Ending "sign in as": the user's session ends and the admin's own comes back (if it still lives). */
export class Impersonation {
  constructor(
    private readonly sessions: Pick<SessionsService, 'end' | 'resolve'>,
    private readonly activity: AdminActivity,
    private readonly findEmail: (userId: number) => Promise<string | null>,
    private readonly bootstrapFor: (userId: number | null, language: string | null) => Promise<Bootstrap>,
  ) {}

  /** Answers the admin's own session token to restore (null when it has ended meanwhile: signed out) and their bootstrap data. */
  async stop(
    current: { userId: number; sessionToken: string | null; impersonatorId: number | null; ip: string; language: string | null },
    adminToken: string | null,
  ): Promise<{ token: string | null; bootstrapData: Bootstrap }> {
    if (!current.impersonatorId || !current.sessionToken) throw Conflict(NOT_IMPERSONATING);
    await this.sessions.end(current.sessionToken);
    const adminEmail = await this.findEmail(current.impersonatorId);
    await this.activity.record(
      { userId: current.impersonatorId, email: adminEmail ?? '', ip: current.ip },
      { action: 'user.impersonation_ended', subjectType: 'user', subjectId: current.userId, subjectLabel: await this.findEmail(current.userId) },
    );
    const admin = adminToken ? await this.sessions.resolve(adminToken) : null;
    const back = admin && admin.userId === current.impersonatorId && !admin.impersonatorId;
    return { token: back ? adminToken : null, bootstrapData: await this.bootstrapFor(back ? admin.userId : null, current.language) };
  }
}
