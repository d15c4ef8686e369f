import { z } from 'zod';
import { customPageSchema } from '../../custom-pages/schemas.js';
import { PAGE_SORTS } from '../../custom-pages/repository.js';
import { listQuery, pageSchema } from '../paging.js';

export const pageListQuery = listQuery(PAGE_SORTS);
export const pageList = pageSchema(customPageSchema);
export const pageIdParam = z.object({ id: z.coerce.number().int().positive() });
export const pageResponse = z.object({ page: customPageSchema });
