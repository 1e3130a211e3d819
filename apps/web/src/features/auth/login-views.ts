/** The login panel's addressable views; the form results (sent, changed) live in memory only. */
export const LOGIN_VIEWS = {
  login: '/login',
  forgot: '/login?view=forgot',
  reset: '/login?view=reset',
} as const;

export const SUPPORT_MAILTO = 'mailto:support@opsdeck.test';

/** The query parameter of the e-mailed reset link (spec section 2). */
export const RESET_KEY_PARAM = 'resetPasswordKey';
