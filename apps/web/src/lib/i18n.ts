import {
  cloneElement,
  createElement,
  Fragment,
  isValidElement,
  useMemo,
  useSyncExternalStore,
  type ReactElement,
  type ReactNode,
} from 'react';
import { ALL_COMMON_PARTS, partOf, type CommonPart } from '../locales/parts';

// The web app's texts: i18next's JSON v4 catalogues (`{{value}}` interpolation, plurals as `_one`/`_other` keys
// chosen by `Intl.PluralRules`, one file per namespace) read by a runtime of our own, a few hundred bytes where
// i18next with react-i18next took 17 kB of the first load (docs/decisions/034-our-own-text-runtime.md). Only the
// viewer's language is downloaded: each catalogue is a chunk of its own, `common` in parts (locales/parts.ts): the
// shell's awaited before the first render (`i18nReady`), a screen's with its code; `admin` with the staff screens.

/** The languages the app speaks, each named in its own language (the header's switcher lists them). */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'es', name: 'Español' },
  { code: 'de', name: 'Deutsch' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];
export const LANGUAGE_CODES: readonly Language[] = LANGUAGES.map((l) => l.code);

/** The catalogues of each language: `common` for customers and the layout, `admin` for staff screens. */
export type Namespace = 'common' | 'admin';
/** What a screen asks to load: a whole namespace, or one part of `common`. */
export type Texts = Namespace | CommonPart;

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

type Tree = { [key: string]: string | Tree };

/** Values put into a text: `{{name}}` takes `name`; `count` also chooses the plural form. */
export type TOptions = Record<string, unknown> & { count?: number; defaultValue?: string };
/**
 * A text of one namespace (or of another, as `ns:key`); a string for options is the text to show when the key has
 * none. The type parameter only names the namespace.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export type TFunction<N extends Namespace = Namespace> = (key: string, options?: TOptions | string) => string;

type Chunks = Record<string, () => Promise<{ default: Tree }>>;
// Every catalogue as lazy chunks: `../locales/de/admin.json` → () => import(...); `common` as one chunk per part,
// cut from the same file at build time (`?part=`, build/common-parts.ts).
const chunks: Record<'admin' | CommonPart, Chunks> = {
  admin: import.meta.glob<{ default: Tree }>('../locales/*/admin.json'),
  shell: import.meta.glob<{ default: Tree }>('../locales/*/common.json', { query: '?part=shell' }),
  seatMap: import.meta.glob<{ default: Tree }>('../locales/*/common.json', { query: '?part=seatMap' }),
  catalogue: import.meta.glob<{ default: Tree }>('../locales/*/common.json', { query: '?part=catalogue' }),
  rest: import.meta.glob<{ default: Tree }>('../locales/*/common.json', { query: '?part=rest' }),
};
/** The texts in, by `language/namespace` (the parts of `common` merged into one tree). */
const loaded: Partial<Record<string, Tree>> = {};
/** What is in, by `language/texts` (`en/admin`, `en/shell`). */
const arrived = new Set<string>();
const loading = new Map<string, Promise<void>>();

/**
 * Loads a catalogue or a part of `common` once (`common` itself: every part); the same promise to every caller until
 * it is in (Suspense waits on it).
 */
function load(language: Language, texts: Texts): Promise<void> {
  const id = `${language}/${texts}`;
  let promise = loading.get(id);
  if (!promise) {
    if (texts === 'common')
      promise = Promise.all(ALL_COMMON_PARTS.map((part) => load(language, part))).then(() => undefined);
    else {
      const ns = texts === 'admin' ? 'admin' : 'common';
      const read = chunks[texts][`../locales/${language}/${ns}.json`];
      promise = read
        ? read().then((module) => {
            Object.assign((loaded[`${language}/${ns}`] ??= {}), module.default);
            arrived.add(id);
          })
        : Promise.reject(new Error(`No catalogue ${id}`));
    }
    loading.set(id, promise);
    // A chunk that failed to arrive (a dropped line) is asked for again next time.
    promise.catch(() => loading.delete(id));
  }
  return promise;
}

let language: Language = detectLanguage();
const listeners = new Set<() => void>();
/** Goes up on every change a text may show: a language switched to, a part of `common` that came late. */
let revision = 0;
function changed() {
  revision++;
  for (const listener of listeners) listener();
}

/**
 * A text of a part of `common` that was not loaded (a screen that did not ask for it): the part is fetched and every
 * text shown again once it is in, so the key shows for a moment at worst. Screens ask for their parts up front.
 */
function loadLate(lang: Language, part: CommonPart) {
  if (loading.has(`${lang}/${part}`)) return;
  if (import.meta.env.DEV) console.warn(`Texts of "${part}" used before they were loaded`);
  void load(lang, part).then(changed, () => undefined);
}

function lookup(lang: Language, ns: string, key: string): string | undefined {
  let node: string | Tree | undefined = loaded[`${lang}/${ns}`];
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' && node !== '' ? node : undefined;
}

const pluralRules = new Map<Language, Intl.PluralRules>();
const pluralOf = (lang: Language, count: number) => {
  let rules = pluralRules.get(lang);
  if (!rules) pluralRules.set(lang, (rules = new Intl.PluralRules(lang)));
  return rules.select(count);
};

/** The raw text of `key` (`ns:key` names another namespace): the plural form for `count`, English as fallback. */
function template(lang: Language, defaultNs: Namespace, fullKey: string, count: unknown): string | undefined {
  const colon = /^(\w+):(.+)$/.exec(fullKey);
  const [ns, key] = colon ? [colon[1]!, colon[2]!] : [defaultNs, fullKey];
  if (ns === 'common') {
    const part = partOf(key.split('.')[0]!);
    if (!arrived.has(`${lang}/${part}`)) loadLate(lang, part);
  }
  for (const l of lang === 'en' ? [lang] : [lang, 'en' as const]) {
    const text =
      (typeof count === 'number' &&
        (lookup(l, ns, `${key}_${pluralOf(l, count)}`) ?? lookup(l, ns, `${key}_other`))) ||
      lookup(l, ns, key);
    if (text !== undefined) return text;
  }
  return undefined;
}

/** `{{name}}` → the value of `name`; a value not given leaves its placeholder. */
const interpolate = (text: string, values: TOptions = {}) =>
  text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    values[name] === undefined ? whole : String(values[name]),
  );

function translate(lang: Language, ns: Namespace, key: string, given?: TOptions | string): string {
  const options = typeof given === 'string' ? { defaultValue: given } : given;
  const text = template(lang, ns, key, options?.count);
  return text === undefined ? (options?.defaultValue ?? key) : interpolate(text, options);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
const revisionSnapshot = () => revision;

function followLanguage(lang: Language) {
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}
followLanguage(language);

/** The app's texts outside React (`i18n.t('common:errors.network')`) and its language. */
export const i18n = {
  t: ((key, options) => translate(language, 'common', key, options)) as TFunction,
  get language(): Language {
    return language;
  },
  get resolvedLanguage(): Language {
    return language;
  },
  /** Loads namespaces or parts of `common` in the current language (those already in come back at once). */
  loadNamespaces: (texts: Texts[]) => Promise.all(texts.map((t) => load(language, t))),
  /**
   * Switches to `lang` once its catalogues of every namespace already read are in, so that no screen shows a key
   * or waits in Suspense; then every `useTranslation` re-renders.
   */
  async changeLanguage(lang: Language): Promise<void> {
    const texts = (['admin', ...ALL_COMMON_PARTS] as const).filter((t) => arrived.has(`${language}/${t}`));
    await Promise.all([load(lang, 'shell'), ...texts.map((t) => load(lang, t))]);
    if (lang === language) return;
    language = lang;
    followLanguage(lang);
    changed();
  },
};

/** A lazily loaded module together with the texts it shows (fetched side by side): resolves with the module. */
export const withTexts = <Module>(code: Promise<Module>, texts: Texts[]): Promise<Module> =>
  Promise.all([code, i18n.loadNamespaces(texts)]).then(([module]) => module);

/** Resolves once the detected language's shell texts are in: the first render waits for them. */
export const i18nReady: Promise<void> = load(language, 'shell');

/**
 * The texts of one namespace for a component, re-rendered on a language change. A namespace not yet loaded
 * suspends the component until its chunk is in (the nearest Suspense shows `PageLoading`).
 */
export function useTranslation(ns: Namespace = 'common'): { t: TFunction; i18n: typeof i18n } {
  // Re-renders on a language change, and when a part of `common` came late (`t` reads the texts as they are).
  useSyncExternalStore(subscribe, revisionSnapshot, revisionSnapshot);
  const lang = language;
  // Suspends the way react-i18next did, by throwing the catalogue's promise (one per catalogue, kept until it is in);
  // for `common`, its shell part (a screen's own parts come with its code).
  const first = ns === 'common' ? 'shell' : ns;
  if (!arrived.has(`${lang}/${first}`)) throw load(lang, first);
  const t = useMemo<TFunction>(() => (key, options) => translate(lang, ns, key, options), [lang, ns]);
  return { t, i18n };
}

/** A text with markup: `<strong>{{ref}}</strong>` in the catalogue, `components={{ strong: <strong /> }}`. */
export function Trans({
  t,
  i18nKey,
  values,
  components,
}: {
  t: TFunction;
  i18nKey: string;
  values?: TOptions;
  components: Record<string, ReactElement>;
}): ReactNode {
  // The tags are read from the text before the values go in: a value is never markup.
  const raw = t(i18nKey, { ...values, ...placeholders(values), count: values?.count });
  return createElement(Fragment, null, ...markup(raw, values ?? {}, components));
}

/** Each value as its own placeholder, so that `t` chooses the plural form but leaves `{{name}}` in the text. */
const placeholders = (values: TOptions = {}) =>
  Object.fromEntries(Object.keys(values).map((name) => [name, `{{${name}}}`]));

function markup(text: string, values: TOptions, components: Record<string, ReactElement>): ReactNode[] {
  const nodes: ReactNode[] = [];
  const tag = /<(\w+)>([\s\S]*?)<\/\1>/g;
  let at = 0;
  for (let m = tag.exec(text); m; m = tag.exec(text)) {
    if (m.index > at) nodes.push(interpolate(text.slice(at, m.index), values));
    const component = components[m[1]!];
    const inner = markup(m[2]!, values, components);
    nodes.push(isValidElement(component) ? cloneElement(component, undefined, ...inner) : inner);
    at = m.index + m[0].length;
  }
  if (at < text.length) nodes.push(interpolate(text.slice(at), values));
  return nodes;
}

/** The current language (one of LANGUAGE_CODES). */
export const currentLanguage = (): Language => language;

/** Switches the language and remembers it for the next visit. */
export async function switchLanguage(lang: Language): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
  } catch {
    // not remembered, still switched
  }
  await i18n.changeLanguage(lang);
}
