import { describe, expect, it } from 'vitest';
import { parsePushPayload, targetUrl } from '../../../src/offline/notifications';

describe('web push payloads in the service worker', () => {
  it('reads the server’s payload and nothing else', () => {
    expect(parsePushPayload(JSON.stringify({ id: 'n1', title: 'Ada shared Plans', body: 'b', url: '/drive/shares', icon: '/icons/icon-192.png' }))).toEqual({
      id: 'n1',
      title: 'Ada shared Plans',
      body: 'b',
      url: '/drive/shares',
      icon: '/icons/icon-192.png',
      tag: 'n1',
    });
    expect(parsePushPayload('not json')).toBeNull();
    expect(parsePushPayload(JSON.stringify({ title: 'no id' }))).toBeNull();
    expect(parsePushPayload(null)).toBeNull();
  });

  it('opens app paths and https addresses only', () => {
    const origin = 'https://drive.example';
    expect(targetUrl('/drive?invite=abc', origin)).toBe('https://drive.example/drive?invite=abc');
    expect(targetUrl('https://docs.example/x', origin)).toBe('https://docs.example/x');
    // A tab or line break inside a path is dropped by the URL parser, turning it into //evil.example (issue 30 finding 7).
    for (const bad of ['javascript:alert(1)', '//evil.example/x', 'http://evil.example', 'data:text/html,x', '/\t/evil.example/x', '/\n/evil.example/x'])
      expect(targetUrl(bad, origin)).toBe('https://drive.example/notifications');
  });
});
