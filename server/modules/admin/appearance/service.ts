import type { BrandingFiles } from '../../appearance/branding-files.js';
import type { AppearanceInput } from '../../appearance/schemas.js';
import type { AppearanceService } from '../../appearance/service.js';
import type { AdminActivity, AdminCaller } from '../activity/service.js';

/** The appearance editor's saves and uploads, logged. */
export class AdminAppearanceService {
  constructor(
    private readonly appearance: AppearanceService,
    private readonly files: BrandingFiles,
    private readonly activity: AdminActivity,
  ) {}

  read() {
    return this.appearance.read();
  }

  async update(caller: AdminCaller, input: AppearanceInput) {
    const { values, keys } = await this.appearance.update(input);
    // Keys only: custom code can be long, and the log is for who changed what.
    await this.activity.record(caller, { action: 'appearance.updated', subjectType: 'settings', details: { keys } });
    return values;
  }

  async upload(caller: AdminCaller, bytes: Buffer) {
    const stored = await this.files.save(bytes, caller.userId);
    await this.activity.record(caller, {
      action: 'appearance.uploaded',
      subjectType: 'branding_file',
      subjectLabel: stored.url,
      details: { mime: stored.mime, size: stored.size },
    });
    return stored;
  }
}
