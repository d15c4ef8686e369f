/** The visitor's chosen language before they sign in (a user's own comes from their profile). */
export const LOCALE_COOKIE = 'locale';
