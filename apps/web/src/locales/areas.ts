/**
 * Every area's strings (`locales/en/<area>.json`), each the `<area>` branch of the translation
 * (`t('users.title')`), so that areas do not edit one shared file. One chunk, loaded with the
 * signed-in shell and not by the login page (lib/i18n.ts, loadAreaStrings).
 */
const areaFiles = import.meta.glob<Record<string, unknown>>('./en/*.json', { eager: true, import: 'default' });

export const AREA_STRINGS: Record<string, Record<string, unknown>> = Object.fromEntries(
  Object.entries(areaFiles).map(([file, strings]) => [file.replace(/^.*\/(.+)\.json$/, '$1'), strings]),
);
