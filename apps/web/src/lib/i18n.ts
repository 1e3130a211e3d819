import { ERROR_MESSAGES } from '@opsdeck/contract/errors';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';
import ja from '../locales/ja.json';

/**
 * Each area keeps its strings in `locales/en/<area>.json`, read as the `<area>` branch of the
 * translation (`t('users.title')`), so areas do not edit one shared file.
 */
const areaFiles = import.meta.glob<Record<string, unknown>>('../locales/en/*.json', { eager: true, import: 'default' });
const areas = Object.fromEntries(
  Object.entries(areaFiles).map(([file, strings]) => [file.replace(/^.*\/(.+)\.json$/, '$1'), strings]),
);

/**
 * English is the product's language and every fallback (spec section 1); the Japanese set exists
 * and is empty. Error texts come straight from the contract's catalogue, the same words the server
 * sends, so there is one source for them.
 */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: ['en', 'ja'],
  ns: ['translation', 'errors'],
  defaultNS: 'translation',
  resources: {
    en: { translation: { ...en, ...areas }, errors: ERROR_MESSAGES },
    ja: { translation: ja },
  },
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** The English (or translated) text of an error key; unknown keys read as the general error. */
export function errorText(key: string | undefined): string | undefined {
  if (!key) return undefined;
  if (i18n.exists(key, { ns: 'errors' })) return i18n.t(key, { ns: 'errors' });
  // A zod message that is not a catalogue key (a schema without a custom message) shows as is.
  return key.startsWith('ERROR_') ? i18n.t('ERROR_GENERAL_INTERNAL', { ns: 'errors' }) : key;
}
