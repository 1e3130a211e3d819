/** Cuts text to `max` characters and marks the cut with '...' (spec section 9). */
export function truncateText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
