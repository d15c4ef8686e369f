import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Bootstrap } from '../../src/api/bootstrap-types';
import { APPEARANCE_EDITOR_SOURCE, CUSTOM_CODE_ID, acceptBridgeMessage, handleBridgeMessage } from '../../src/features/appearance/bridge';
import { darkTheme, lightTheme, makeBootstrap } from './fixtures';

const PAGE_HOST = 'drive.example.com';
const event = (data: unknown, origin = 'https://drive.example.com') => ({ data, origin });

describe('bridge message filtering', () => {
  const navigate = { source: APPEARANCE_EDITOR_SOURCE, type: 'navigate', to: '/drive' };

  it('accepts messages with the editor marker from the same host name', () => {
    expect(acceptBridgeMessage(event(navigate), PAGE_HOST)).toEqual(navigate);
    // The host name is what counts, not port or scheme.
    expect(acceptBridgeMessage(event(navigate, 'http://drive.example.com:8080'), PAGE_HOST)).toEqual(navigate);
  });

  it('ignores a wrong or missing source', () => {
    expect(acceptBridgeMessage(event({ ...navigate, source: 'someone-else' }), PAGE_HOST)).toBeNull();
    expect(acceptBridgeMessage(event({ type: 'navigate', to: '/drive' }), PAGE_HOST)).toBeNull();
    expect(acceptBridgeMessage(event('be-appearance-editor'), PAGE_HOST)).toBeNull();
  });

  it('ignores another host', () => {
    expect(acceptBridgeMessage(event(navigate, 'https://evil.example.com'), PAGE_HOST)).toBeNull();
    expect(acceptBridgeMessage(event(navigate, 'null'), PAGE_HOST)).toBeNull();
  });

  it('ignores unknown types', () => {
    expect(acceptBridgeMessage(event({ source: APPEARANCE_EDITOR_SOURCE, type: 'deleteEverything' }), PAGE_HOST)).toBeNull();
  });
});

describe('bridge handlers', () => {
  let data: Bootstrap;
  const deps = () => ({
    navigate: vi.fn(),
    getBootstrap: () => data,
    setBootstrap: (next: Bootstrap) => {
      data = next;
    },
  });

  beforeEach(() => {
    data = makeBootstrap();
    document.documentElement.removeAttribute('style');
    document.documentElement.classList.remove('dark');
    document.querySelectorAll(`#${CUSTOM_CODE_ID}`).forEach((el) => el.remove());
  });

  it('navigates', () => {
    const d = deps();
    handleBridgeMessage({ type: 'navigate', to: '/pricing' }, d);
    expect(d.navigate).toHaveBeenCalledWith('/pricing');
  });

  it('replaces the theme list and merges settings', () => {
    handleBridgeMessage({ type: 'setValues', values: { themes: [darkTheme], settings: { cookie_notice: { position: 'top' } } } }, deps());
    expect(data.themes.all).toEqual([darkTheme]);
    expect(data.settings.cookie_notice).toEqual({ enable: true, position: 'top', button: null });
    expect(data.settings.themes.user_change).toBe(true);
  });

  it('previews branding sent as settings in the app’s branding too', () => {
    handleBridgeMessage({ type: 'setValues', values: { settings: { branding: { site_name: 'Acme', logo_light: '/logo.png' } } } }, deps());
    expect(data.branding).toMatchObject({ site_name: 'Acme', logo_light: '/logo.png', logo_dark: '' });
  });

  it('sets a theme colour and applies a theme with its dark class', () => {
    handleBridgeMessage({ type: 'setThemeColor', name: '--be-primary', value: '1 2 3' }, deps());
    expect(document.documentElement.style.getPropertyValue('--be-primary')).toBe('1 2 3');
    handleBridgeMessage({ type: 'setActiveTheme', themeId: darkTheme.id }, deps());
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(document.documentElement.style.getPropertyValue('--be-background')).toBe('18 18 18');
    handleBridgeMessage({ type: 'setActiveTheme', themeId: lightTheme.id }, deps());
    expect(document.documentElement.classList.contains('dark')).toBe(false);
  });

  it('inserts and removes custom html and css under the fixed id', () => {
    handleBridgeMessage({ type: 'setCustomCode', mode: 'html', value: '<p>Hi</p>' }, deps());
    const html = document.getElementById(CUSTOM_CODE_ID);
    expect(html?.parentElement).toBe(document.body);
    expect(html?.innerHTML).toBe('<p>Hi</p>');

    handleBridgeMessage({ type: 'setCustomCode', mode: 'css', value: 'body{color:red}' }, deps());
    const style = document.head.querySelector(`#${CUSTOM_CODE_ID}`);
    expect(style?.tagName).toBe('STYLE');
    expect(style?.textContent).toBe('body{color:red}');

    // Each kind replaces only itself: the HTML stays while the CSS changes.
    expect(document.body.querySelector(`div#${CUSTOM_CODE_ID}`)?.innerHTML).toBe('<p>Hi</p>');
    handleBridgeMessage({ type: 'setCustomCode', mode: 'css', value: '' }, deps());
    expect(document.head.querySelector(`style#${CUSTOM_CODE_ID}`)).toBeNull();
    handleBridgeMessage({ type: 'setCustomCode', mode: 'html', value: null }, deps());
    expect(document.getElementById(CUSTOM_CODE_ID)).toBeNull();
  });
});
