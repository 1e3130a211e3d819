/** A person's name as every list shows it (spec section 3: completeName). */
export const completeName = (user: { firstName: string; lastName: string }) =>
  `${user.firstName} ${user.lastName}`.trim();
