/** Business constants of spec section 9, shared by the server and the console. */
export const LIMITS = {
  nameMax: 255,
  descriptionMax: 1024,
  pageSize: 10,
  typeaheadResults: 5,
  breadcrumbEntries: 5,
  submitReenableMs: 1000,
  toastCloseMs: 5000,
  truncate: {
    companyName: 50,
    modalName: 50,
    tableContent: 50,
    toastName: 50,
    dropdownName: 40,
    navigationName: 30,
  },
} as const;

/** Spec section 5: backslash, slash, colon, asterisk, question mark, double quote, bar, < and >. */
export const FORBIDDEN_NAME_CHARS = /[\\/:*?"|<>]/;

/** Exactly one '@' with something on both sides and no whitespace (spec section 5). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;
