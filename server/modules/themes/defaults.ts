/**
 * The two built-in themes. Colours are CSS custom properties holding RGB
 * triplets so the client can add alpha (`rgb(var(--be-primary) / 0.5)`).
 */
export interface ThemeSeed {
  name: string;
  is_dark: boolean;
  default_light: boolean;
  default_dark: boolean;
  colors: Record<string, string>;
}

export const defaultThemes: ThemeSeed[] = [
  {
    name: 'Light',
    is_dark: false,
    default_light: true,
    default_dark: false,
    colors: {
      '--be-background': '255 255 255',
      '--be-background-alt': '246 248 250',
      '--be-paper': '255 255 255',
      '--be-foreground-base': '15 23 42',
      '--be-primary': '26 115 232',
      '--be-primary-light': '210 227 252',
      '--be-primary-dark': '23 78 166',
      '--be-on-primary': '255 255 255',
      '--be-danger': '211 47 47',
      '--be-positive': '46 125 50',
      '--be-warning': '237 108 2',
      '--be-divider': '0 0 0',
    },
  },
  {
    name: 'Dark',
    is_dark: true,
    default_light: false,
    default_dark: true,
    colors: {
      '--be-background': '18 18 18',
      '--be-background-alt': '30 30 30',
      '--be-paper': '36 36 36',
      '--be-foreground-base': '255 255 255',
      '--be-primary': '138 180 248',
      '--be-primary-light': '50 70 100',
      '--be-primary-dark': '100 150 230',
      '--be-on-primary': '18 18 18',
      '--be-danger': '244 67 54',
      '--be-positive': '102 187 106',
      '--be-warning': '255 167 38',
      '--be-divider': '255 255 255',
    },
  },
];
