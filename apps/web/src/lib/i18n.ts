import i18n, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
// English customer texts ship in the entry, so an English first load waits for nothing; every other language and the
// staff screens' `admin` namespace arrive as their own small chunks when first needed (docs/decisions/026-languages.md).
import enCommon from '../locales/en/common.json';

/** The languages the app speaks, each named in its own language (the header's switcher lists them). */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'es', name: 'Español' },
  { code: 'de', name: 'Deutsch' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];
export const LANGUAGE_CODES: readonly Language[] = LANGUAGES.map((l) => l.code);

/** Where the viewer's choice is remembered. */
export const LANGUAGE_STORAGE_KEY = 'cinema.lang';

const isLanguage = (code: string | null | undefined): code is Language =>
  !!code && (LANGUAGE_CODES as readonly string[]).includes(code);

/** The remembered choice, else the first of the browser's languages we speak, else English. */
export function detectLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    if (isLanguage(stored)) return stored;
  } catch {
    // storage blocked: follow the browser
  }
  const wanted = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  for (const tag of wanted) {
    const primary = tag?.split('-')[0]?.toLowerCase();
    if (isLanguage(primary)) return primary;
  }
  return 'en';
}

// Every catalogue but the bundled one, as a lazy chunk: `../locales/de/common.json` → () => import(...).
const catalogues = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json');

const lazyCatalogues: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const load = catalogues[`../locales/${language}/${namespace}.json`];
    if (!load) return callback(null, {});
    load().then(
      (module) => callback(null, module.default),
      (err: Error) => callback(err, false),
    );
  },
};

/** Resolves once the detected language's `common` texts are in (at once for English). */
export const i18nReady = i18n
  .use(lazyCatalogues)
  .use(initReactI18next)
  .init({
    resources: { en: { common: enCommon } },
    partialBundledLanguages: true,
    lng: detectLanguage(),
    fallbackLng: 'en',
    supportedLngs: LANGUAGE_CODES as Language[],
    load: 'languageOnly',
    ns: ['common'],
    defaultNS: 'common',
    interpolation: { escapeValue: false }, // React escapes
    returnEmptyString: false,
  });

function followLanguage(language: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}
followLanguage(i18n.language);
i18n.on('languageChanged', followLanguage);

/** The current language (one of LANGUAGE_CODES). */
export const currentLanguage = (): Language =>
  isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';

/** Switches the language and remembers it for the next visit. */
export async function switchLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // not remembered, still switched
  }
  await i18n.changeLanguage(language);
}

export { i18n };
