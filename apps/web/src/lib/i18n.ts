import { ERROR_MESSAGES } from '@opsdeck/contract/errors';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';
import ja from '../locales/ja.json';

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
    en: { translation: en, errors: ERROR_MESSAGES },
    ja: { translation: ja },
  },
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

let areaStrings: Promise<void> | undefined;

/**
 * Adds every area's strings (locales/areas.ts) once. The login page shows only the shared strings
 * of `en.json`; the signed-in shell's route waits for these before it renders, so no page shows a
 * key (docs/performance.md, the console's initial JavaScript). A failed load is tried again next time.
 */
export function loadAreaStrings(): Promise<void> {
  areaStrings ??= import('../locales/areas').then(
    ({ AREA_STRINGS }) => {
      i18n.addResourceBundle('en', 'translation', AREA_STRINGS, true, false);
    },
    (error: unknown) => {
      areaStrings = undefined;
      throw error;
    },
  );
  return areaStrings;
}

/** The English (or translated) text of an error key; unknown keys read as the general error. */
export function errorText(key: string | undefined): string | undefined {
  if (!key) return undefined;
  if (i18n.exists(key, { ns: 'errors' })) return i18n.t(key, { ns: 'errors' });
  // A zod message that is not a catalogue key (a schema without a custom message) shows as is.
  return key.startsWith('ERROR_') ? i18n.t('ERROR_GENERAL_INTERNAL', { ns: 'errors' }) : key;
}
