import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconRoute } from '@tabler/icons-react';

interface BrandMarkProps {
  /** On a dark or coloured background. */
  inverted?: boolean;
  size?: 'sm' | 'lg';
  /** Renders the product name as the page's main heading. */
  asHeading?: boolean;
}

export function BrandMark({ inverted = false, size = 'sm', asHeading = false }: BrandMarkProps) {
  const large = size === 'lg';
  return (
    <Group gap={large ? 'sm' : 8} wrap="nowrap">
      <ThemeIcon
        size={large ? 44 : 30}
        radius="md"
        variant={inverted ? 'white' : 'gradient'}
        gradient={{ from: 'indigo.6', to: 'cyan.5', deg: 135 }}
        aria-hidden="true"
      >
        <IconRoute size={large ? 26 : 18} stroke={2} />
      </ThemeIcon>
      <Text
        component={asHeading ? 'h1' : 'span'}
        m={0}
        fw={800}
        fz={large ? 28 : 20}
        lh={1}
        c={inverted ? 'white' : undefined}
        style={{ letterSpacing: '-0.02em' }}
      >
        Opsdeck
      </Text>
    </Group>
  );
}
