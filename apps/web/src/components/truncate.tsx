import { Text, type TextProps, Tooltip, VisuallyHidden } from '@mantine/core';
import { truncateText } from '../lib/truncate';

interface TruncateProps extends Omit<TextProps, 'children'> {
  text: string;
  /** One of LIMITS.truncate (company name 50, navigation name 30, …). */
  max: number;
}

/** Long text cut with '...'; the tooltip shows the full text, and screen readers read it whole. */
export function Truncate({ text, max, ...textProps }: TruncateProps) {
  const shown = truncateText(text, max);
  if (shown === text) {
    return (
      <Text span inherit {...textProps}>
        {text}
      </Text>
    );
  }
  return (
    <Tooltip label={text} multiline maw={400} withinPortal>
      <Text span inherit {...textProps}>
        <span aria-hidden="true">{shown}</span>
        <VisuallyHidden>{text}</VisuallyHidden>
      </Text>
    </Tooltip>
  );
}
