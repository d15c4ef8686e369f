import { describe, expect, it } from 'vitest';
import * as rules from '../../../common/scrub.js';

/** What an error report may say of a person, on the server, the page and the worker alike (issue 33: user id only). */
describe('scrubbing', () => {
  it.each([
    ['an email', 'sent to alice@example.com today', 'sent to [email] today'],
    ['a bearer token', 'Authorization failed: Bearer eyJhbGciOi.x_y-z', 'Authorization failed: Bearer [token]'],
    ['a cookie header', 'cookie: drive_session=abc; theme=dark', 'cookie: [removed]; theme=dark'],
    ['a query string', 'GET /api/v1/x?token=abc&name=a', 'GET /api/v1/x?[removed]'],
    ['a file name', 'could not read "Quarterly report.xlsx"', 'could not read "Quarterly [file]"'],
    ['a link id', 'link Zx81kQp2LmN0aB7c expired', 'link [id] expired'],
    ['plain words', 'Cannot read properties of undefined', 'Cannot read properties of undefined'],
  ])('removes %s', (_name, input, output) => {
    expect(rules.scrubText(input)).toBe(output);
  });

  it('keeps only the user id and the request method, and scrubs breadcrumbs', () => {
    const event = rules.scrubEvent({
      user: { id: 7, email: 'a@b.co', username: 'alice', ip_address: '1.2.3.4' },
      request: { method: 'GET', url: 'https://drive.example/s/Zx81kQp2LmN0aB7c?password=x' },
      exception: { values: [{ type: 'Error', value: 'alice@example.com' }] },
      breadcrumbs: [{ message: 'clicked report.pdf', data: { url: 'https://drive.example/api/v1/file-entries/Ab12Cd34Ef56Gh78?x=1', cookie: 'a=b' } }],
      contexts: { trace: { trace_id: '1' }, state: { user: 'a@b.co' } },
    });
    expect(event.user).toEqual({ id: 7 });
    expect(event.request).toEqual({ method: 'GET', url: '/s/[id]?[removed]' });
    expect(event.exception?.values?.[0]?.value).toBe('[email]');
    expect(event.breadcrumbs).toEqual([{ message: 'clicked [file]', data: { url: '/api/v1/file-entries/[id]?[removed]' } }]);
    expect(event.contexts).toEqual({ trace: { trace_id: '1' } });
  });
});
