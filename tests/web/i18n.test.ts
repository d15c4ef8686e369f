import { describe, expect, it } from 'vitest';
import { formatMessage, pickPluralForm, replacePlaceholders } from '../../src/i18n/format-message';
import { i18n, syncLanguage, translate } from '../../src/i18n/i18n';
import { formatRelativeTime } from '../../src/i18n/relative-time';
import { resolveTimezone } from '../../src/i18n/timezone';

describe('plural and placeholder substitution', () => {
  it('picks the singular form for count 1 and the plural otherwise', () => {
    expect(pickPluralForm(':count item|:count items', 1)).toBe(':count item');
    expect(pickPluralForm(':count item|:count items', 0)).toBe(':count items');
    expect(pickPluralForm(':count item|:count items', 5)).toBe(':count items');
    expect(pickPluralForm('No pipes here', 5)).toBe('No pipes here');
  });

  it('replaces :placeholders, longest names intact', () => {
    expect(replacePlaceholders('To join your team on :siteName, login to your account', { siteName: 'BeDrive' })).toBe(
      'To join your team on BeDrive, login to your account',
    );
    expect(replacePlaceholders(':file exceeds maximum allowed size of :size', { file: 'a.txt', size: '2 MB' })).toBe(
      'a.txt exceeds maximum allowed size of 2 MB',
    );
    expect(replacePlaceholders('Keep :unknown', {})).toBe('Keep :unknown');
  });

  it('combines both', () => {
    expect(formatMessage('Moved :count item to trash|Moved :count items to trash', { count: 3 })).toBe('Moved 3 items to trash');
    expect(formatMessage('Moved :count item to trash|Moved :count items to trash', { count: 1 })).toBe('Moved 1 item to trash');
  });
});

describe('i18next with server lines', () => {
  it('translates by English key, applies the syntax, falls back to the key', () => {
    syncLanguage('tr', {
      'Take me there!': 'Beni oraya götür!',
      ':count file|:count files': ':count dosya|:count dosyalar',
      'Hello :name': 'Merhaba :name',
    });
    expect(i18n.language).toBe('tr');
    expect(translate('Take me there!')).toBe('Beni oraya götür!');
    expect(translate(':count file|:count files', { count: 1 })).toBe('1 dosya');
    expect(translate(':count file|:count files', { count: 4 })).toBe('4 dosyalar');
    expect(translate('Hello :name', { name: 'Ada' })).toBe('Merhaba Ada');
    expect(translate('Not translated: :x.', { x: 'yes' })).toBe('Not translated: yes.');
    syncLanguage('en', {});
    expect(translate('Take me there!')).toBe('Take me there!');
  });
});

describe('relative time', () => {
  const now = new Date('2025-06-01T12:00:00Z');
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

  it("reads 'a few seconds ago' under 60 seconds", () => {
    syncLanguage('en', {});
    expect(formatRelativeTime(ago(0), now)).toBe('a few seconds ago');
    expect(formatRelativeTime(ago(59), now)).toBe('a few seconds ago');
    expect(formatRelativeTime(ago(60), now)).toBe('1 minute ago');
  });

  it('walks the units up to years', () => {
    expect(formatRelativeTime(ago(5 * 60), now)).toBe('5 minutes ago');
    expect(formatRelativeTime(ago(3 * 3600), now)).toBe('3 hours ago');
    expect(formatRelativeTime(ago(2 * 86400), now)).toBe('2 days ago');
    expect(formatRelativeTime(ago(14 * 86400), now)).toBe('2 weeks ago');
    expect(formatRelativeTime(ago(400 * 86400), now)).toBe('1 year ago');
  });

  it('counts a month as 4.34524 weeks', () => {
    const week = 7 * 86400;
    // 4.3 weeks is still weeks; 4.35 weeks is a month.
    expect(formatRelativeTime(ago(4.3 * week), now)).toBe('4 weeks ago');
    expect(formatRelativeTime(ago(4.35 * week), now)).toBe('1 month ago');
    expect(formatRelativeTime(ago(3 * 4.34524 * week + 60), now)).toBe('3 months ago');
  });
});

describe('timezone rule', () => {
  it("prefers the user's, then the site default, then the browser's", () => {
    expect(resolveTimezone('Europe/Istanbul', 'UTC', 'America/New_York')).toBe('Europe/Istanbul');
    expect(resolveTimezone(null, 'UTC', 'America/New_York')).toBe('UTC');
    expect(resolveTimezone(null, '', 'America/New_York')).toBe('America/New_York');
  });
});

describe('relative time in another language', () => {
  it('uses the server lines for the unit phrases', () => {
    syncLanguage('tr', { ':count minutes ago': ':count dakika önce|:count dakika önce', 'a few seconds ago': 'birkaç saniye önce' });
    const now = new Date('2025-06-01T12:00:00Z');
    expect(formatRelativeTime(new Date(now.getTime() - 5 * 60_000), now)).toBe('5 dakika önce');
    expect(formatRelativeTime(new Date(now.getTime() - 5_000), now)).toBe('birkaç saniye önce');
    syncLanguage('en', {});
  });
});
