/**
 * A queue position with its English ordinal suffix (spec section 2): 1st, 2nd, 3rd, 4th, 11th,
 * 12th, 13th, 21st, 101st, 111th. The teens take 'th' whatever their last digit.
 */
export function ordinal(position: number): string {
  const lastTwo = Math.abs(position) % 100;
  if (lastTwo >= 11 && lastTwo <= 13) return `${position}th`;
  switch (Math.abs(position) % 10) {
    case 1:
      return `${position}st`;
    case 2:
      return `${position}nd`;
    case 3:
      return `${position}rd`;
    default:
      return `${position}th`;
  }
}
