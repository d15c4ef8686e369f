import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types.js';
import { NotFound, ValidationError } from '../../../lib/errors.js';
import type { CustomPage, CustomPagesRepository } from '../../custom-pages/repository.js';
import type { PageInput } from '../../custom-pages/schemas.js';
import { PAGE_NOT_FOUND } from '../../custom-pages/service.js';
import type { AdminActivity, AdminCaller } from '../activity/service.js';

export const SLUG_TAKEN = 'Another page already uses this slug.';

/** Creating, editing and deleting custom pages; each change is in the admin log. */
export class AdminCustomPagesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly repo: CustomPagesRepository,
    private readonly activity: AdminActivity,
  ) {}

  list(query: Parameters<CustomPagesRepository['list']>[0]) {
    return this.repo.list(query);
  }

  async get(id: number): Promise<CustomPage> {
    const page = await this.repo.byId(id);
    if (!page) throw NotFound(PAGE_NOT_FOUND);
    return page;
  }

  async create(caller: AdminCaller, input: PageInput): Promise<CustomPage> {
    const id = await this.db.transaction().execute(async (trx) => {
      if (await this.repo.slugTaken(input.slug, null, trx)) throw ValidationError.field('slug', SLUG_TAKEN);
      const id = await this.repo.insert(input, caller.userId, trx);
      await this.activity.record(caller, { action: 'custom_page.created', subjectType: 'custom_page', subjectId: id, subjectLabel: input.slug }, trx);
      return id;
    });
    return this.get(id);
  }

  async update(caller: AdminCaller, id: number, input: PageInput): Promise<CustomPage> {
    const before = await this.get(id);
    await this.db.transaction().execute(async (trx) => {
      if (await this.repo.slugTaken(input.slug, id, trx)) throw ValidationError.field('slug', SLUG_TAKEN);
      await this.repo.update(id, input, trx);
      await this.activity.record(
        caller,
        {
          action: 'custom_page.updated',
          subjectType: 'custom_page',
          subjectId: id,
          subjectLabel: input.slug,
          details: before.slug === input.slug ? {} : { previous_slug: before.slug },
        },
        trx,
      );
    });
    return this.get(id);
  }

  async delete(caller: AdminCaller, id: number): Promise<void> {
    const page = await this.get(id);
    await this.db.transaction().execute(async (trx) => {
      await this.repo.delete(id, trx);
      await this.activity.record(caller, { action: 'custom_page.deleted', subjectType: 'custom_page', subjectId: id, subjectLabel: page.slug }, trx);
    });
  }
}
