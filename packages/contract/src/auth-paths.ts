/** The sign-in, session and password-reset calls' paths under /api (spec section 7). */
export const AUTH_PATHS = {
  login: '/login',
  logout: '/logout',
  sessionCheck: '/test',
  resetPassword: '/user/reset-password',
  resetKeyCheck: '/reset-password/check',
} as const;
