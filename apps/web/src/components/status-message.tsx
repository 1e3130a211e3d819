import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

interface StatusMessageProps {
  /** The HTTP-style code shown large: '401', '403'. */
  code: string;
  title: string;
  body: string;
  /** A way out, when there is one. */
  action?: { label: string; to: string };
}

/** The full-width message of the forbidden and unauthorized pages. */
export function StatusMessage({ code, title, body, action }: StatusMessageProps) {
  return (
    <Stack align="center" gap="sm" py={80} ta="center">
      {/* gray.6: a large text needs 3:1 against the page (gray.4 gave 1.5:1). */}
      <Text fz={84} fw={900} c="gray.6" lh={1}>
        {code}
      </Text>
      <Title order={1} fz={26}>
        {title}
      </Title>
      <Text c="dimmed" maw={440}>
        {body}
      </Text>
      {action && (
        <Button component={Link} to={action.to} variant="light" mt="md">
          {action.label}
        </Button>
      )}
    </Stack>
  );
}
